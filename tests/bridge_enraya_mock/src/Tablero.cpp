// MOCK game core for tablero's CI (see include/Tablero.hpp). Made-up rules, NOT 5-en-Raya:
// - a placement is legal on an empty cell whose column has the parity of the phase
//   (c mod 2 == phase mod 2); the first player starts with one placement, then every turn has
//   two; the turn passes to the other player (and the phase grows) when none is left or the game
//   is over;
// - a player with no legal placement passes: the turn counter grows, the other player moves and
//   the phase grows; the placements left stay;
// - N pieces of one player side by side in a row or in a column win (rows are scanned first);
//   a full board otherwise is a draw.
// The board file of cargarDesdeFichero has the course's format: "F C N", then
// "phase player left turn", then F x C numbers.
#include "Tablero.hpp"

#include <fstream>
#include <sstream>

Tablero Tablero::cargarDesdeFichero(const std::string &ruta) {
    std::ifstream f(ruta);
    int fils = 3, cols = 3, n = 3;
    f >> fils >> cols >> n;
    Tablero t(fils, cols, n);
    f >> t.faseActual >> t.jugadorTurno >> t.movimientosRestantes >> t.turnoActual;
    for (int i = 0; i < fils; i++) {
        for (int j = 0; j < cols; j++) f >> t.rejilla[i][j];
    }
    return t;
}

Tablero::Tablero(int filas, int cols, int nParaGanar)
    : jugadorTurno(1), movimientosRestantes(1), faseActual(0), filas(filas), columnas(cols), nParaGanar(nParaGanar),
      turnoActual(0), rejilla(filas, std::vector<int>(cols, 0)) {}

bool Tablero::ponerPieza(int f, int c, int jugador) {
    if (f < 0 || f >= filas || c < 0 || c >= columnas || rejilla[f][c] != 0 || jugador != jugadorTurno) return false;
    if (c % 2 != faseActual % 2) return false;
    rejilla[f][c] = jugador;
    turnoActual++;
    movimientosRestantes--;
    if (movimientosRestantes <= 0 || comprobarGanador() != 0) {
        jugadorTurno = jugadorTurno == 1 ? 2 : 1;
        movimientosRestantes = 2;
        faseActual++;
    }
    return true;
}

void Tablero::pasarTurno() {
    turnoActual++;
    faseActual++;
    jugadorTurno = jugadorTurno == 1 ? 2 : 1;
}

std::vector<std::pair<Tablero, std::pair<int, int>>> Tablero::getSucesoresConMovimientos() const {
    std::vector<std::pair<Tablero, std::pair<int, int>>> out;
    if (comprobarGanador() != 0) return out;
    for (int f = 0; f < filas; f++) {
        for (int c = 0; c < columnas; c++) {
            Tablero hijo = *this;
            if (hijo.ponerPieza(f, c, jugadorTurno)) out.push_back({hijo, {f, c}});
        }
    }
    return out;
}

std::vector<Tablero> Tablero::getSucesores() const {
    std::vector<Tablero> out;
    if (comprobarGanador() != 0) return out;
    for (auto &h : getSucesoresConMovimientos()) out.push_back(h.first);
    if (out.empty()) {
        Tablero pase = *this;
        pase.pasarTurno();
        out.push_back(pase);
    }
    return out;
}

bool Tablero::tieneMovimientosValidos() const {
    for (int f = 0; f < filas; f++) {
        for (int c = 0; c < columnas; c++) {
            if (rejilla[f][c] == 0 && c % 2 == faseActual % 2) return true;
        }
    }
    return false;
}

int Tablero::comprobarGanador() const {
    lineaGanadora.clear();
    const int df[2] = {0, 1}, dc[2] = {1, 0};
    for (int d = 0; d < 2; d++) {
        for (int f = 0; f < filas; f++) {
            for (int c = 0; c < columnas; c++) {
                int j = rejilla[f][c];
                if (j == 0) continue;
                int k = 1;
                while (k < nParaGanar && f + df[d] * k < filas && c + dc[d] * k < columnas &&
                       rejilla[f + df[d] * k][c + dc[d] * k] == j) {
                    k++;
                }
                if (k == nParaGanar) {
                    for (int i = 0; i < k; i++) lineaGanadora.push_back({f + df[d] * i, c + dc[d] * i});
                    return j;
                }
            }
        }
    }
    return estaLleno() ? -1 : 0;
}

bool Tablero::estaLleno() const {
    for (const auto &fila : rejilla) {
        for (int v : fila) {
            if (v == 0) return false;
        }
    }
    return true;
}

bool Tablero::esVacio() const {
    for (const auto &fila : rejilla) {
        for (int v : fila) {
            if (v != 0) return false;
        }
    }
    return true;
}

bool Tablero::tieneAdyacente(int f, int c) const {
    for (int df = -1; df <= 1; df++) {
        for (int dc = -1; dc <= 1; dc++) {
            int nf = f + df, nc = c + dc;
            if ((df || dc) && nf >= 0 && nf < filas && nc >= 0 && nc < columnas && rejilla[nf][nc] != 0) return true;
        }
    }
    return false;
}

int Tablero::contarCombinaciones(int, int) const { return 0; }

std::vector<std::vector<std::pair<int, int>>> Tablero::buscarTodasLasLineas(int, int) const { return {}; }

int Tablero::getGanadorDesempate() const { return -1; }
