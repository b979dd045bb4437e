// tablero CI driver (tests/bridge_parchis.rs): prints the bridge's notation conversion for every
// tablero move kind, one line each: `<text> <colour> <id> <dice> <formatted back>`, then the
// rejected spellings as `bad <text>`. Built against the MOCK course API (mock_course_api.h).
#include <cstdio>
#include <string>

#include "notation.h"

int main() {
    const char *colours = "ybrg";
#ifdef TABLERO_BRIDGE_2023
    // 2023-24 (build.sh --year 2023-24): no items, the special die `power`.
    const char *dice[] = {"1", "2", "4", "5", "6", "10", "20", "power"};
#else
    const char *dice[] = {"1", "2", "4", "5", "6", "10", "20", "star", "boo", "bullet", "redshell",
                          "blueshell", "mushroom", "megamushroom", "shock", "horn", "banana"};
#endif
    for (int pass_colour : {static_cast<int>(yellow), static_cast<int>(blue)}) {
        for (const char *d : dice) {
            std::string texts[17];
            std::string list;
            if (pass_colour == yellow) {
                for (int c = 0; c < 4; c++) {
                    for (int i = 0; i < 4; i++) list += std::string(1, colours[c]) + std::to_string(i) + ":" + d + " ";
                }
            }
            list += std::string("pass:") + d;
            std::size_t start = 0;
            while (start < list.size()) {
                std::size_t sp = list.find(' ', start);
                if (sp == std::string::npos) sp = list.size();
                std::string text = list.substr(start, sp - start);
                start = sp + 1;
                bridge::CourseMove m;
                std::string err, back;
                if (!bridge::parse_tablero_move(text, static_cast<color>(pass_colour), m, err)) {
                    std::printf("parse-failed %s %s\n", text.c_str(), err.c_str());
                    continue;
                }
                if (!bridge::format_tablero_move(m, back, err)) back = "format-failed";
                std::printf("%s %d %d %d %s\n", text.c_str(), static_cast<int>(m.c), m.id, m.dice, back.c_str());
            }
        }
    }
    for (const char *bad : {"y4:5", "x0:5", "y0:3", "y0", "pass:7", "y0:Star", "yy:5", ":5", "pass:", "y0:05"}) {
        bridge::CourseMove m;
        std::string err;
        std::printf("%s %s\n", bridge::parse_tablero_move(bad, yellow, m, err) ? "accepted" : "bad", bad);
    }
    bridge::CourseMove none_colour{none, 0, 5}, big_id{yellow, 4, 5}, bad_die{yellow, 0, 3};
    for (const bridge::CourseMove &m : {none_colour, big_id, bad_die}) {
        std::string out, err;
        std::printf("%s\n", bridge::format_tablero_move(m, out, err) ? "formatted" : "unformattable");
    }
    return 0;
}
