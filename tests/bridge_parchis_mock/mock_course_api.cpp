// MOCK of the course simulator's API for tablero's CI (see mock_course_api.h): not Parchís.
#include "mock_course_api.h"

#include <iostream>

// The mock's stand-in for the student's depth constant, exposed like build.sh exposes the real one.
int PROFUNDIDAD_ALFABETA = 6;

void Player::perceive(Parchis &p) {
    actual = &p;
    jugador = p.getCurrentPlayerId();
}

bool AIPlayer::move() { return false; }

void AIPlayer::think(color &c_piece, int &id_piece, int &dice) const {
    // Student code prints freely; the bridge must keep this off the protocol stream.
    cout << "mock AIPlayer thinking (this line must not reach the protocol stream)" << endl;
    c_piece = actual->getCurrentColor();
    switch (id) {
        case 1: id_piece = SKIP_TURN; dice = 4; break;
        case 2: id_piece = 0; dice = 3; break;
        case 3: id_piece = 1; dice = star; break;
        case 4: id_piece = 2; dice = 5; break;
        default: id_piece = 0; dice = PROFUNDIDAD_ALFABETA; break;
    }
}

Parchis::Parchis(const BoardConfig &, shared_ptr<Player> p1, shared_ptr<Player> p2) {
    players.push_back(p1);
    players.push_back(p2);
}

bool Parchis::canSkipTurn(color, int dice) const { return !gameOver() && dice == 4; }

const vector<tuple<color, int>> Parchis::getAvailablePieces(color c, int) const {
    vector<tuple<color, int>> out;
    if (gameOver()) return out;
    color partner = c == yellow ? red : c == blue ? green : none;
    for (color col : {c, partner}) {
        out.push_back(make_tuple(col, 0));
        out.push_back(make_tuple(col, 1));
    }
    return out;
}

void Parchis::movePiece(color c, int piece, int dice) {
    bool ok = piece == SKIP_TURN ? canSkipTurn(c, dice) : piece == 0 || piece == 1;
    if (!ok) {
        illegal = true;
        return;
    }
    played++;
    player = 1 - player;
}
