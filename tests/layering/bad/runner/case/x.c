/* x.c - an upward and a bare include. */
#include "judge/a.h"
#include "util.h"
