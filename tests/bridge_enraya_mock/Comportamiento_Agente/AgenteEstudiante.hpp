// MOCK of the course's student agent header (Comportamiento_Agente/AgenteEstudiante.hpp),
// written for tablero's CI: the constructor, the modes and the methods the simulator's main.cpp
// and the bridge use, with the course's signatures; the standard includes of the real one.
#ifndef AGENTE_ESTUDIANTE_HPP
#define AGENTE_ESTUDIANTE_HPP

#include <atomic>
#include <chrono>
#include <ctime>
#include <vector>

#include "Agente.hpp"

class AgenteEstudiante : public Agente {
public:
    enum class ModoJuego { ALEATORIO, MINIMAX, INTELIGENTE, STATUS };

    AgenteEstudiante(int id, int profundidadMax, double tiempoMax = 5.0, int numHeuristica = 1,
                     ModoJuego modo = ModoJuego::INTELIGENTE);

    virtual std::pair<int, int> think(const Tablero &tablero) override;
    virtual void interrumpir() override { abortarBanda = true; }
    virtual bool tieneLimiteDeTiempo() const override { return modo != ModoJuego::STATUS; }

private:
    int id;
    int profundidadMax;
    double tiempoMaxSegundos;
    int numHeuristica;
    ModoJuego modo;
    std::atomic<bool> abortarBanda;
    int llamadas;  // think() calls on this object (the bridge keeps one agent per seat and game)
};

#endif
