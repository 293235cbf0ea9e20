/* a.c - half of a circle. */
#include "judge/a.h"

/* Short. */
int a(void)
{
    return 1;
}
