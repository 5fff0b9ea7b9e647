#pragma once
// The solver kinds (--solver, the session files' names, Solver::name()), apart from the
// pipeline so that small headers (the mu rule) can name them.
#include <optional>
#include <string_view>

namespace gvflab {

enum class SolverKind { Euler, Multigrid };

// "euler", "multigrid": the --solver values, the session files' names and Solver::name().
const char* solverKindName(SolverKind kind);
// The reverse; nullopt for any other name (callers word the error for their input).
std::optional<SolverKind> parseSolverKind(std::string_view name);

}  // namespace gvflab
