// MOCK of the course's player.h for tablero's CI (tests/bridge_boom.rs): the same declarations
// as the course's (Player(int), Think(), Perceive()).
#ifndef PLAYER_H
#define PLAYER_H

#include "environment.h"

class Player {
public:
    Player(int jug);
    Environment::ActionType Think();
    void Perceive(const Environment &env);

private:
    int jugador_;
    Environment actual_;
};
#endif
