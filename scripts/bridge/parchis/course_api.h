// tablero bridge: the one place the adapter includes the course simulator's API.
//
// The real build (build.sh) compiles against the user's course checkout. The CI test defines
// TABLERO_BRIDGE_MOCK and compiles against tests/bridge_parchis_mock/, a MOCK header set written
// for tablero that only mirrors the signatures the adapter calls (no course rules, no course code).
#ifndef TABLERO_BRIDGE_COURSE_API_H
#define TABLERO_BRIDGE_COURSE_API_H

#ifdef TABLERO_BRIDGE_MOCK
#include "mock_course_api.h"
#else
#include "Parchis.h"
#include "AIPlayer.h"
#endif

#endif
