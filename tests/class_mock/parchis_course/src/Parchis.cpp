// MOCK for tablero's class tests: the course core is inline in include/Parchis.h.
#include "Parchis.h"
