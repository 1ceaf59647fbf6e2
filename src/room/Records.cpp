#include "room/Records.hpp"

namespace semis::room {

namespace {

struct KindName {
  ActionKind kind;
  std::string_view name;
};

// The stored names: one table, read both ways.
constexpr KindName kKindNames[] = {
    {ActionKind::Move, "move"},         {ActionKind::Swap, "swap"},      {ActionKind::Split, "split"},
    {ActionKind::Resign, "resign"},     {ActionKind::Draw, "draw"},      {ActionKind::Timeout, "timeout"},
    {ActionKind::Abort, "abort"},       {ActionKind::NoShow, "no_show"}, {ActionKind::Claim, "claim"},
    {ActionKind::TakeBack, "takeback"}, {ActionKind::Forfeit, "forfeit"},
};

}  // namespace

std::string_view actionKindName(ActionKind kind) {
  for (const KindName& k : kKindNames) {
    if (k.kind == kind) return k.name;
  }
  return "move";
}

std::optional<ActionKind> parseActionKind(std::string_view name) {
  for (const KindName& k : kKindNames) {
    if (k.name == name) return k.kind;
  }
  return std::nullopt;
}

}  // namespace semis::room
