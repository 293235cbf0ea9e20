/* view.h - the layout of a case argument's view over its storage. */
#ifndef BR_VIEW_H
#define BR_VIEW_H
#include "case/caseio.h"

/* Whether the view (offset, strides) is plain C-contiguous. */
int br_is_contiguous(const br_arg *a);

#endif
