// tablero bridge (5-en-Raya Táctico): the one place the protocol front end includes the course
// simulator's API: the game core `Tablero` (Tablero.hpp) and the agent interface `Agente`
// (Agente.hpp). The front end never names the student's class; main.cpp builds it. build.sh
// compiles against a scratch copy of the user's checkout; CI compiles against
// tests/bridge_enraya_mock/, a MOCK checkout written for tablero (same declarations, made-up rules).
#ifndef TABLERO_ENRAYA_COURSE_API_H
#define TABLERO_ENRAYA_COURSE_API_H

#include "Agente.hpp"
#include "Tablero.hpp"

#endif
