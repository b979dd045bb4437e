// Games played by the 2025-26 course core of 5-en-Raya, printed as traces in the format of
// tests/golden/enraya/core_traces.jsonl (its README), so that tablero's rules can be checked
// against the core on games nobody has seen (new seeds, other sizes): one JSON object per ply,
// the core's view after the move. This driver is tablero's: it only includes the course's
// Tablero.hpp and links its Tablero.cpp from a checkout the user supplies
// (scripts/enraya/differential.sh builds it and replays its output through tablero).
//
// The moves are applied as the course's game loop applies them (ControladorJuego::paso and
// procesarMovimiento): a player with no legal placement passes (Tablero::pasarTurno), otherwise
// the chosen placement goes through Tablero::ponerPieza; the game ends when comprobarGanador()
// is non-zero. Policies, by game number modulo 3, as the golden games: `random` (uniform among
// the core's legal moves), `avoidend` (moves after which the game is not over, then cells that
// are not yellow: long games, passes) and `special` (special cells whenever one is legal). Every
// tenth game is on another board (3x3 N=3, 7x7 N=4, 6x7 N=4, 15x15 N=5 in turn). A game still
// running at MAX_PLIES is cut there.
//
// Usage: core_traces SEED GAMES [MAX_PLIES]

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "Tablero.hpp"

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

std::string grid(const Tablero& t) {
    std::string g;
    for (int f = 0; f < t.getFilas(); ++f) {
        if (f > 0) g += '/';
        for (int c = 0; c < t.getColumnas(); ++c) {
            int v = t.getCelda(f, c);
            g += v == 1 ? 'x' : v == 2 ? 'o' : '.';
        }
    }
    return g;
}

std::string cell(int f, int c) { return std::to_string(f) + "," + std::to_string(c); }

void line(int game, int ply, const char* policy, const Tablero& t, const std::string& move) {
    int r = t.comprobarGanador();
    bool over = r != 0;
    std::string result = r == 1 ? "1" : r == 2 ? "2" : r == -1 ? "draw" : "-";
    std::string legal;
    if (!over) {
        auto kids = t.getSucesoresConMovimientos();
        if (kids.empty()) {
            legal = "\"pass\"";
        }
        for (size_t i = 0; i < kids.size(); ++i) {
            if (i > 0) legal += ",";
            legal += "\"" + cell(kids[i].second.first, kids[i].second.second) + "\"";
        }
    }
    std::printf(
        "{\"game\":%d,\"ply\":%d,\"policy\":\"%s\",\"size\":[%d,%d,%d],\"move\":%s,\"grid\":\"%s\","
        "\"player\":%d,\"left\":%d,\"phase\":%d,\"turn\":%d,\"over\":%s,\"result\":\"%s\",\"legal\":[%s]}\n",
        game, ply, policy, t.getFilas(), t.getColumnas(), t.getNParaGanar(),
        move.empty() ? "null" : ("\"" + move + "\"").c_str(), grid(t).c_str(), t.getJugadorTurno(),
        t.getMovimientosRestantes(), t.getFaseActual(), t.getTurnoActual(), over ? "true" : "false",
        result.c_str(), legal.c_str());
}

bool yellow(const Tablero& t, int f, int c) { return t.getTipoCelda(f, c) == Tablero::TipoCelda::AMARILLO; }
bool special(const Tablero& t, int f, int c) { return t.getTipoCelda(f, c) != Tablero::TipoCelda::NORMAL; }

// The move `policy` picks among the core's legal placements.
std::pair<int, int> pick(const Tablero& t, int policy, Rng& rng) {
    auto kids = t.getSucesoresConMovimientos();
    std::vector<std::pair<int, int>> pool;
    if (policy == 1) {
        for (auto& k : kids)
            if (k.first.comprobarGanador() == 0) pool.push_back(k.second);
        std::vector<std::pair<int, int>> calm;
        for (auto& m : pool)
            if (!yellow(t, m.first, m.second)) calm.push_back(m);
        if (!calm.empty()) pool = calm;
    } else if (policy == 2) {
        for (auto& k : kids)
            if (special(t, k.second.first, k.second.second)) pool.push_back(k.second);
    }
    if (pool.empty())
        for (auto& k : kids) pool.push_back(k.second);
    return pool[rng.below(pool.size())];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: core_traces SEED GAMES [MAX_PLIES]\n");
        return 2;
    }
    unsigned long long seed = std::strtoull(argv[1], nullptr, 10);
    int games = std::atoi(argv[2]);
    int max_plies = argc == 4 ? std::atoi(argv[3]) : 300;
    const int sizes[4][3] = {{3, 3, 3}, {7, 7, 4}, {6, 7, 4}, {15, 15, 5}};
    const char* names[3] = {"random", "avoidend", "special"};
    for (int g = 0; g < games; ++g) {
        Rng rng{seed * 1000003ULL + static_cast<unsigned long long>(g)};
        int f = 9, c = 9, n = 5;
        if (g % 10 == 9) {
            const int* s = sizes[(g / 10) % 4];
            f = s[0], c = s[1], n = s[2];
        }
        int policy = g % 3;
        Tablero t(f, c, n);
        line(g, 0, names[policy], t, "");
        for (int ply = 1; ply <= max_plies && t.comprobarGanador() == 0 && !t.estaLleno(); ++ply) {
            std::string move;
            if (!t.tieneMovimientosValidos()) {
                t.pasarTurno();
                move = "pass";
            } else {
                auto m = pick(t, policy, rng);
                if (!t.ponerPieza(m.first, m.second, t.getJugadorTurno())) {
                    std::fprintf(stderr, "game %d ply %d: the core refused its own move %s\n", g, ply,
                                 cell(m.first, m.second).c_str());
                    return 1;
                }
                move = cell(m.first, m.second);
            }
            line(g, ply, names[policy], t, move);
        }
    }
    return 0;
}
