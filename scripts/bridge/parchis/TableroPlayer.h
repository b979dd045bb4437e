// tablero bridge: a player for the course Parchís simulator (2022-23) that asks a tablero engine
// for every move. Copy this file to the checkout's include/ and TableroPlayer.cpp to its src/,
// then create it in src/main.cpp like an AIPlayer (see tablero's README, "The course simulator
// bridge"). Written for tablero; it uses only the simulator's public Player/Parchis API.
//
// The engine command is $TABLERO_CMD (default `tablero`, run with /bin/sh -c). The search limit
// is `go depth <id>` when the player's id is positive, else $TABLERO_GO (default `go depth 6`).
// Extra `setoption` lines come from $TABLERO_OPTIONS (`Name=Value;Name=Value`).
#ifndef TABLERO_PLAYER_H
#define TABLERO_PLAYER_H

#include <cstdio>
#include <string>
#include <vector>

#include "AIPlayer.h"
#include "Attributes.h"

class TableroPlayer : public AIPlayer {
public:
    TableroPlayer(const string &name, int id = 0);
    ~TableroPlayer();

    // Records the move just made (the course keeps no history; tablero needs the whole list).
    void perceive(Parchis &p) override;
    bool move() override;
    void think(color &c_piece, int &id_piece, int &dice) const override;

    // The moves of the game so far, in tablero notation.
    const vector<string> &history() const { return moves; }

private:
    vector<string> moves;
    int seen_turn;
    bool broken;   // a move was missed or could not be written: tablero cannot follow the game
    mutable int to_engine;
    mutable int from_engine;
    mutable int pid;
    mutable std::string pending;

    bool start_engine() const;
    bool send(const std::string &line) const;
    bool read_line(std::string &line) const;
};

#endif
