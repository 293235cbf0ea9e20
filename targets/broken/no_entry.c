/* no_entry.c - test target: a shared object without bcast_target_v1, which the runner must refuse. */
#include "broken.h"

const bct_target *bcast_target_v0(void);
const bct_target *bcast_target_v0(void) { return NULL; }
