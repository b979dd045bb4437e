// tablero bridge: conversion between tablero's Parchís move notation and the course API.
//
// tablero writes a move as <piece>:<die>, piece = y/b/r/g + index, die = 1 2 4 5 6 10 20 or an
// item name, and a pass as pass:<die> (protocol.md). The course API names a move by
// (colour, piece id, dice) where a pass is piece id SKIP_TURN and an item is its item_type code.
#ifndef TABLERO_BRIDGE_NOTATION_H
#define TABLERO_BRIDGE_NOTATION_H

#include <string>

#include "course_api.h"

namespace bridge {

// A move in the course's terms. For a pass, `c` is the colour the course expects: the mover's
// main colour (yellow for player 0, blue for player 1), which the caller supplies.
struct CourseMove {
    color c;
    int id;
    int dice;
};

// Parses tablero text. `pass_colour` is used for passes. Returns false with `err` set on bad
// syntax (legality is the course core's business).
bool parse_tablero_move(const std::string &text, color pass_colour, CourseMove &out, std::string &err);

// Formats a course move as tablero text; returns false with `err` set when the course values
// have no tablero spelling (unknown colour, piece id outside 0..3, unknown dice code).
bool format_tablero_move(const CourseMove &m, std::string &out, std::string &err);

// The tablero letter of a course colour ('?' for none).
char colour_letter(color c);

// The tablero die text of a course dice value or item code ("" when unknown).
std::string die_text(int dice);

}  // namespace bridge

#endif
