#include "CSofiaShim.h"
