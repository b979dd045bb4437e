// tablero bridge (Conecta-4 BOOM): the one place the adapter includes the course simulator's API,
// the 2020-21 simulator's `Environment` (environment.h) and the student's `Player` (player.h).
// build.sh compiles against a scratch copy of the user's checkout; CI compiles against
// tests/bridge_boom_mock/, a MOCK written for tablero (same signatures, made-up rules).
#ifndef TABLERO_BRIDGE_BOOM_COURSE_API_H
#define TABLERO_BRIDGE_BOOM_COURSE_API_H

#include "environment.h"
#include "player.h"

#endif
