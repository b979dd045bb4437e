// MOCK of the course's Attributes.h for tests/bridge_parchis.rs (written for tablero): the same
// standard includes as the real one (vector, map, string, `using namespace std`) and the one
// enum the header test needs. No course code.
#ifndef __ATTRIBUTES_H__
#define __ATTRIBUTES_H__

#include <map>
#include <string>
#include <vector>

using namespace std;

enum color { blue, red, green, yellow, none };

#endif
