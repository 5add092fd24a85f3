// The one Catch2 main of the test programs (engine, runner, render, ui, desktop): Catch's own implementation
// is compiled once here and linked into each, rather than once per program (a minute of compile time each).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
