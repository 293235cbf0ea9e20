/* a.h - half of a circle. */
#include "judge/b.h"
