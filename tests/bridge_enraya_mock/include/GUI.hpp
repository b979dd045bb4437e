// MOCK of the course's include/GUI.hpp, written for tablero's CI: like the real one it includes
// <GL/glut.h> (which the bridge's stub replaces) and declares a class of static functions with no
// GL type in its interface. A student's file may include it; the bridge never builds the GUI.
#ifndef GUI_HPP
#define GUI_HPP

#include <GL/glut.h>
#include <memory>
#include <vector>

#include "Tablero.hpp"

class GUI {
public:
    static void inicializar(int argc, char **argv, int filas, int cols);
    static void ejecutar();
};

#endif
