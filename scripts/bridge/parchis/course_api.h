// tablero bridge: the one place the adapter includes the course simulator's API.
//
// The real build (build.sh) compiles against the user's course checkout. The CI test defines
// TABLERO_BRIDGE_MOCK and compiles against tests/bridge_parchis_mock/, a MOCK header set written
// for tablero that only mirrors the signatures the adapter calls (no course rules, no course code).
#ifndef TABLERO_BRIDGE_COURSE_API_H
#define TABLERO_BRIDGE_COURSE_API_H

#ifdef TABLERO_BRIDGE_MOCK
#include "mock_course_api.h"
#elif defined(TABLERO_BRIDGE_2024)
// 2024-25 (build.sh --year 2024-25): the course builds with -I include, its core in
// include/model/; Parchis.h includes the player's src/personal/AIPlayer.h itself.
#include "model/Parchis.h"
#else
#include "Parchis.h"
#include "AIPlayer.h"
#endif

#endif
