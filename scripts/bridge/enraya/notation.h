// tablero bridge (5-en-Raya Táctico, course 2025-26): tablero's notation for the course core's
// `Tablero`, used by both directions of the bridge (the student's agent as an engine, and
// AgenteTablero inside the simulator). Header-only; it calls only the core's public getters, so
// it compiles against the course's Tablero.hpp and against tablero's mock of it.
//
// A cell is `f,c` (row from the top, column from the left, from 0: the pair `think()` returns);
// a pass is `pass`. The state string is `<grid> <x|o> <left> <phase> <turn>`: rows top to bottom
// separated by `/`, runs of empty cells as decimal numbers, `x` player 1, `o` player 2; then the
// player to move (getJugadorTurno), the placements left in the turn (getMovimientosRestantes),
// the Trinity phase (getFaseActual) and the core's turn counter (getTurnoActual).
#ifndef TABLERO_ENRAYA_NOTATION_H
#define TABLERO_ENRAYA_NOTATION_H

#include <string>
#include <utility>
#include <vector>

#include "Tablero.hpp"

namespace enraya {

inline std::string cell_text(int f, int c) { return std::to_string(f) + "," + std::to_string(c); }

// Reads `f,c` (two decimal numbers of at most 4 digits); false for anything else.
inline bool parse_cell(const std::string &s, int &f, int &c) {
    std::size_t comma = s.find(',');
    if (comma == std::string::npos || comma == 0 || comma + 1 >= s.size()) return false;
    auto number = [](const std::string &t, int &v) {
        if (t.empty() || t.size() > 4) return false;
        v = 0;
        for (char ch : t) {
            if (ch < '0' || ch > '9') return false;
            v = v * 10 + (ch - '0');
        }
        return true;
    };
    return number(s.substr(0, comma), f) && number(s.substr(comma + 1), c);
}

// The grid part of the state string.
inline std::string grid_text(const Tablero &t) {
    std::string out;
    for (int f = 0; f < t.getFilas(); f++) {
        if (f) out += '/';
        int empty = 0;
        for (int c = 0; c < t.getColumnas(); c++) {
            int v = t.getCelda(f, c);
            if (v == 0) {
                empty++;
                continue;
            }
            if (empty) out += std::to_string(empty);
            empty = 0;
            out += v == 1 ? 'x' : v == 2 ? 'o' : '?';
        }
        if (empty) out += std::to_string(empty);
    }
    return out;
}

// The core's whole state as tablero's state string.
inline std::string fen(const Tablero &t) {
    return grid_text(t) + " " + (t.getJugadorTurno() == 1 ? "x" : t.getJugadorTurno() == 2 ? "o" : "?") + " " +
           std::to_string(t.getMovimientosRestantes()) + " " + std::to_string(t.getFaseActual()) + " " +
           std::to_string(t.getTurnoActual());
}

// The legal moves in the core's order (getSucesoresConMovimientos: row-major); {"pass"} when the
// player to move has no placement and the game goes on; empty when the game is over.
inline std::vector<std::string> legal_moves(const Tablero &t) {
    std::vector<std::string> out;
    if (t.comprobarGanador() != 0) return out;
    for (const auto &child : t.getSucesoresConMovimientos()) out.push_back(cell_text(child.second.first, child.second.second));
    if (out.empty()) out.push_back("pass");
    return out;
}

// The result as the golden traces write it: "-" while the game runs, "1", "2" or "draw".
inline std::string result_text(const Tablero &t) {
    int w = t.comprobarGanador();
    return w == 0 ? "-" : w == 1 ? "1" : w == 2 ? "2" : w == -1 ? "draw" : "?" + std::to_string(w);
}

// A state string read into the core's fields.
struct State {
    int rows = 0, cols = 0;
    std::vector<int> cells;  // row-major, 0 empty, 1, 2
    int player = 1, left = 0, phase = 0, turn = 0;
};

// Reads a state string (its five fields already split); false with `err` set when malformed.
inline bool parse_state(const std::vector<std::string> &fields, State &s, std::string &err) {
    if (fields.size() != 5) {
        err = "expected 5 fields '<grid> <x|o> <left> <phase> <turn>', got " + std::to_string(fields.size());
        return false;
    }
    s = State();
    std::vector<std::vector<int>> rows(1);
    const std::string &g = fields[0];
    for (std::size_t i = 0; i < g.size();) {
        char ch = g[i];
        if (ch == '/') {
            rows.emplace_back();
            i++;
        } else if (ch == 'x' || ch == 'o') {
            rows.back().push_back(ch == 'x' ? 1 : 2);
            i++;
        } else if (ch >= '1' && ch <= '9') {
            int n = 0;
            while (i < g.size() && g[i] >= '0' && g[i] <= '9' && n < 1000) n = n * 10 + (g[i++] - '0');
            if (n > 999) {
                err = "a run of " + std::to_string(n) + " empty cells is too long";
                return false;
            }
            rows.back().insert(rows.back().end(), n, 0);
        } else {
            err = std::string("unexpected '") + ch + "' in the grid (character " + std::to_string(i + 1) +
                  "); expected x, o, a number of empty cells or /";
            return false;
        }
    }
    s.rows = static_cast<int>(rows.size());
    s.cols = static_cast<int>(rows[0].size());
    for (std::size_t r = 0; r < rows.size(); r++) {
        if (static_cast<int>(rows[r].size()) != s.cols || s.cols == 0) {
            err = "row " + std::to_string(r + 1) + " has " + std::to_string(rows[r].size()) + " cells, row 1 has " +
                  std::to_string(s.cols);
            return false;
        }
        s.cells.insert(s.cells.end(), rows[r].begin(), rows[r].end());
    }
    if (fields[1] != "x" && fields[1] != "o") {
        err = "the player to move is '" + fields[1] + "', expected x or o";
        return false;
    }
    s.player = fields[1] == "x" ? 1 : 2;
    const char *names[3] = {"placements left", "phase", "turn"};
    int *dest[3] = {&s.left, &s.phase, &s.turn};
    for (int k = 0; k < 3; k++) {
        const std::string &v = fields[2 + k];
        if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
            err = std::string("the ") + names[k] + " field is '" + v + "', expected a non-negative integer";
            return false;
        }
        *dest[k] = std::stoi(v);
    }
    return true;
}

}  // namespace enraya

#endif
