// MOCK of the 2025-26 course simulator's game core, written for tablero's CI
// (tests/bridge_enraya.rs). It declares the same public API as the course's include/Tablero.hpp
// (the names and signatures the bridge and the students call), with the same standard includes,
// so that scripts/bridge/enraya/ compiles against it without the course code. The rules in
// src/Tablero.cpp are MADE UP (not 5-en-Raya): a tiny game that reaches every branch of the
// bridge (several placements per turn, passes, wins, draws, board files).
#ifndef TABLERO_HPP
#define TABLERO_HPP

#include <string>
#include <vector>

class Tablero {
public:
    enum class TipoCelda { NORMAL, ROJO, VERDE, AMARILLO };

    Tablero(int filas, int cols, int nParaGanar);
    static Tablero cargarDesdeFichero(const std::string &ruta);

    bool ponerPieza(int f, int c, int jugador);
    std::vector<Tablero> getSucesores() const;
    std::vector<std::pair<Tablero, std::pair<int, int>>> getSucesoresConMovimientos() const;
    bool tieneMovimientosValidos() const;
    void pasarTurno();

    int comprobarGanador() const;
    bool estaLleno() const;
    bool esVacio() const;
    bool tieneAdyacente(int f, int c) const;

    int getFilas() const { return filas; }
    int getColumnas() const { return columnas; }
    int getNParaGanar() const { return nParaGanar; }
    int getCelda(int f, int c) const { return rejilla[f][c]; }
    const std::vector<std::pair<int, int>> &getLineaGanadora() const { return lineaGanadora; }

    int contarCombinaciones(int longitud, int jugador) const;
    std::vector<std::vector<std::pair<int, int>>> buscarTodasLasLineas(int longitud, int jugador) const;
    int getGanadorDesempate() const;
    TipoCelda getTipoCelda(int, int) const { return TipoCelda::NORMAL; }

    int getTurnoActual() const { return turnoActual; }
    int getJugadorTurno() const { return jugadorTurno; }
    int getMovimientosRestantes() const { return movimientosRestantes; }
    int getFaseActual() const { return faseActual; }

private:
    int jugadorTurno;
    int movimientosRestantes;
    int faseActual;
    int filas;
    int columnas;
    int nParaGanar;
    int turnoActual;
    std::vector<std::vector<int>> rejilla;
    mutable std::vector<std::pair<int, int>> lineaGanadora;
};

#endif
