// MOCK of the course's agent interface (include/Agente.hpp), written for tablero's CI: the same
// three virtual methods with the same signatures and defaults, the same includes.
#ifndef AGENTE_HPP
#define AGENTE_HPP

#include <utility>

#include "Tablero.hpp"

class Agente {
public:
    virtual ~Agente() {}
    virtual std::pair<int, int> think(const Tablero &tablero) = 0;
    virtual bool tieneLimiteDeTiempo() const { return true; }
    virtual void interrumpir() {}
};

#endif
