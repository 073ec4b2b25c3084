#ifndef SIPWAKE_CSOFIASHIM_H
#define SIPWAKE_CSOFIASHIM_H
#include <sofia-sip/nta.h>
#endif
