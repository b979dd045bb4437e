// Games played by the 2018-19 course core of DesConecta-4 BOOM (class Environment of the course's
// Desconecta4Boom_linux/environment.cpp), printed as traces in the format of
// tests/traces/boom/core_traces_2018.jsonl (its README): one JSON object per ply, the core's view
// after the move. This driver is tablero's: it only includes the course's environment.h and links
// its environment.cpp from a checkout the user supplies (scripts/boom/traces_2018.sh builds it
// with the course Makefile's flags and writes the traces).
//
// The moves are applied as the course's game loop applies them (GUI::doOneStep): while
// JuegoTerminado() is false, the chosen action goes through AcceptAction and then ChangePlayer.
// The winner is RevisarTablero() (0 = draw), as GUI::showScore reports it. Candidate moves are
// tried on a default-constructed Environment assigned from the real one (as the course's
// GenerateAllMoves does), never on a copy-constructed one: the early core's copy constructor
// leaves the bomb period n_veces uninitialised.
//
// Policies, by game number modulo 3: `random` (uniform among the core's legal actions),
// `avoidend` (actions after which the game is not over when there are any: long games, full
// boards, booms late in the game) and `boom` (BOOM whenever it is legal, otherwise as avoidend).
// A game still running at MAX_PLIES is cut there.
//
// Usage: core_traces_2018 SEED GAMES [MAX_PLIES]

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "environment.h"

namespace {

// SplitMix64: the same stream on every machine (rand() is not).
struct Rng {
    unsigned long long s;
    unsigned long long next() {
        unsigned long long z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

// tablero's state string of the core's board: rows top to bottom, x/o pieces of player 1/2,
// X/O their bombs, digits for runs of empty cells; the side to move; the number of the next
// movement (2 per round: n_jugada counts rounds from 1, player 1 moves first in each).
std::string fen(const Environment& e) {
    std::string s;
    for (int row = 6; row >= 0; --row) {
        int empty = 0;
        for (int col = 0; col < 7; ++col) {
            int v = e.See_Casilla(row, col);
            if (v == 0) {
                ++empty;
                continue;
            }
            if (empty > 0) s += std::to_string(empty);
            empty = 0;
            switch (v) {
                case 1: s += 'x'; break;
                case 2: s += 'o'; break;
                case 4: s += 'X'; break;
                case 5: s += 'O'; break;
                default:
                    std::fprintf(stderr, "unexpected cell value %d at row %d column %d\n", v, row, col);
                    std::exit(1);
            }
        }
        if (empty > 0) s += std::to_string(empty);
        if (row > 0) s += '/';
    }
    int player = e.JugadorActivo();
    int movement = 2 * (e.N_Jugada() - 1) + player;
    s += player == 1 ? " x " : " o ";
    s += std::to_string(movement);
    return s;
}

std::string move_name(int a) { return a == 7 ? "boom" : std::to_string(a + 1); }

std::vector<int> legal(const Environment& e) {
    bool act[8];
    e.possible_actions(act);
    std::vector<int> out;
    for (int a = 0; a < 8; ++a)
        if (act[a]) out.push_back(a);
    return out;
}

void line(int game, int ply, const char* policy, const Environment& e, const std::string& move) {
    bool over = e.JuegoTerminado();
    std::string result = "-";
    if (over) {
        int w = e.RevisarTablero();
        result = w == 1 ? "first" : w == 2 ? "second" : "draw";
    }
    std::string moves;
    if (!over) {
        for (int a : legal(e)) {
            if (!moves.empty()) moves += ",";
            moves += "\"" + move_name(a) + "\"";
        }
    }
    std::printf(
        "{\"game\":%d,\"ply\":%d,\"policy\":\"%s\",\"move\":%s,\"fen\":\"%s\",\"legal\":[%s],"
        "\"over\":%s,\"result\":\"%s\",\"bombs\":\"%d,%d\",\"turn\":\"%d\",\"bombnow\":\"%d\","
        "\"free\":%d}\n",
        game, ply, policy, move.empty() ? "null" : ("\"" + move + "\"").c_str(), fen(e).c_str(),
        moves.c_str(), over ? "true" : "false", result.c_str(), e.Have_BOOM(1) ? 1 : 0,
        e.Have_BOOM(2) ? 1 : 0, e.N_Jugada(), e.Put_FichaBOOM_now() ? 1 : 0,
        e.Get_Casillas_Libres());
}

// Is the game over after action `a` (tried on a default-constructed Environment)?
bool ends(const Environment& e, int a) {
    Environment c;
    c = e;
    c.AcceptAction(static_cast<Environment::ActionType>(a));
    c.ChangePlayer();
    return c.JuegoTerminado();
}

int pick(const Environment& e, int policy, Rng& rng) {
    std::vector<int> moves = legal(e);
    if (policy == 2)
        for (int a : moves)
            if (a == 7) return a;
    std::vector<int> pool;
    if (policy >= 1)
        for (int a : moves)
            if (!ends(e, a)) pool.push_back(a);
    if (pool.empty()) pool = moves;
    return pool[rng.below(pool.size())];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: core_traces_2018 SEED GAMES [MAX_PLIES]\n");
        return 2;
    }
    unsigned long long seed = std::strtoull(argv[1], nullptr, 10);
    int games = std::atoi(argv[2]);
    int max_plies = argc == 4 ? std::atoi(argv[3]) : 300;
    const char* names[3] = {"random", "avoidend", "boom"};
    for (int g = 0; g < games; ++g) {
        Rng rng{seed * 1000003ULL + static_cast<unsigned long long>(g)};
        int policy = g % 3;
        Environment e;
        line(g, 0, names[policy], e, "");
        for (int ply = 1; ply <= max_plies && !e.JuegoTerminado(); ++ply) {
            if (legal(e).empty()) {
                std::fprintf(stderr, "game %d ply %d: the core offers no action\n", g, ply);
                return 1;
            }
            int a = pick(e, policy, rng);
            e.AcceptAction(static_cast<Environment::ActionType>(a));
            e.ChangePlayer();
            line(g, ply, names[policy], e, move_name(a));
        }
    }
    return 0;
}
