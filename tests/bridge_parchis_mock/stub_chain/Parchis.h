// MOCK of the course's Parchis.h for tests/bridge_parchis.rs (written for tablero): the same
// include lines as the real one — <tuple>, GUIPlayer.h (here the bridge's stub), AIPlayer.h,
// <iostream>, <algorithm>, <memory> — around a one-method class. No course code.
#ifndef __PARCHIS_H__
#define __PARCHIS_H__

#include <tuple>

#include "GUIPlayer.h"
#include "AIPlayer.h"
#include <algorithm>
#include <iostream>
#include <memory>

using namespace std;

class Parchis {
public:
    color getCurrentColor() const { return yellow; }
};

#endif
