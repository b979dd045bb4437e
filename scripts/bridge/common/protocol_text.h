// tablero bridges: the text side of the protocol that both course bridges (parchis/, boom/)
// share: tokens with their columns, the error-message conventions of protocol.md (tokens cut to
// 40 characters), numbers, and the `setoption` and `go` grammars. Header-only, no course code.
#ifndef TABLERO_BRIDGE_PROTOCOL_TEXT_H
#define TABLERO_BRIDGE_PROTOCOL_TEXT_H

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>
#include <vector>

namespace bridge_text {

struct Token {
    std::string text;
    int column;  // 1-based
};

inline std::vector<Token> tokenize(const std::string &line) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) i++;
        if (i >= line.size()) break;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t') j++;
        out.push_back(Token{line.substr(i, j - i), static_cast<int>(i) + 1});
        i = j;
    }
    return out;
}

// Tokens quoted in errors are cut to 40 characters (protocol.md).
inline std::string cut(const std::string &s) { return s.size() > 40 ? s.substr(0, 40) : s; }

inline std::string lower(std::string s) {
    for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline bool parse_uint(const std::string &s, long long &v) {
    if (s.empty() || s.size() > 18) return false;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
    }
    v = std::stoll(s);
    return true;
}

inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// `setoption name <name> [value <value>]`: false with `error` set when malformed.
inline bool parse_setoption(const std::vector<Token> &t, std::string &name, std::string &value, bool &has_value,
                            std::string &error) {
    if (t.size() < 3 || t[1].text != "name") {
        error = "setoption: expected 'setoption name <name> [value <value>]'";
        return false;
    }
    name.clear();
    value.clear();
    bool in_value = false;
    has_value = false;
    for (std::size_t i = 2; i < t.size(); i++) {
        if (!in_value && t[i].text == "value") {
            in_value = has_value = true;
            continue;
        }
        std::string &dst = in_value ? value : name;
        if (!dst.empty()) dst += " ";
        dst += t[i].text;
    }
    return true;
}

// `go [depth N] [nodes N] …`: the depth (-1 when absent; other limits are accepted and
// ignored, the course players have no clock); false with `error` set on bad input.
inline bool parse_go(const std::vector<Token> &t, int &depth, std::string &error) {
    depth = -1;
    for (std::size_t i = 1; i < t.size(); i++) {
        const std::string &w = t[i].text;
        if (w == "infinite") continue;
        if (w == "depth" || w == "nodes" || w == "movetime" || w == "wtime" || w == "btime" || w == "winc" ||
            w == "binc" || w == "movestogo") {
            if (i + 1 >= t.size()) {
                error = "go: '" + w + "' needs a number (character " + std::to_string(t[i].column) + ")";
                return false;
            }
            long long v;
            if (!parse_uint(t[i + 1].text, v)) {
                error = "go " + w + " expects a non-negative integer, got '" + cut(t[i + 1].text) + "' (character " +
                        std::to_string(t[i + 1].column) + ")";
                return false;
            }
            if (w == "depth") {
                if (v == 0) {
                    error = "go: depth must be at least 1";
                    return false;
                }
                depth = static_cast<int>(std::min<long long>(v, 64));
            }
            i++;
            continue;
        }
        error = "go: unknown limit '" + cut(w) + "' (character " + std::to_string(t[i].column) +
                "); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo";
        return false;
    }
    return true;
}

}  // namespace bridge_text

#endif
