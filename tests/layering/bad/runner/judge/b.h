/* b.h - the other half. */
int b(void);
