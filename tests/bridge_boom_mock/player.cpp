// A MOCK student's player.cpp for tablero's CI (tests/bridge_boom.rs), written for tablero: its
// depth constant sits inside Think() as in the course's template, so build.sh must expose it
// as the Depth option; the depth picks what Think() returns, so the test reaches every branch
// of the bridge: 1..7 = PUT in that column, 8 = BOOM, 9 = a value that is no action. It also
// prints, as students' players do (the bridge must keep this off the protocol stream).
#include <iostream>

#include "player.h"

Player::Player(int jug) { jugador_ = jug; }

void Player::Perceive(const Environment &env) { actual_ = env; }

Environment::ActionType Player::Think() {
    const int PROFUNDIDAD_MINIMAX = 6;  // Umbral maximo de profundidad para el metodo MiniMax
    const int PROFUNDIDAD_ALFABETA = 8; // Umbral maximo de profundidad para la poda Alfa_Beta
    cout << "mock Player " << jugador_ << " thinking at depth " << PROFUNDIDAD_ALFABETA
         << " (this line must not reach the protocol stream)" << endl;
    (void)PROFUNDIDAD_MINIMAX;
    if (PROFUNDIDAD_ALFABETA == 9) return static_cast<Environment::ActionType>(12);
    return static_cast<Environment::ActionType>(PROFUNDIDAD_ALFABETA - 1);
}
