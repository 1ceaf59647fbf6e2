#include "bots/BotService.hpp"

#include "accounts/Passwords.hpp"
#include "accounts/Tokens.hpp"
#include "identity/Names.hpp"
#include "ops/Log.hpp"
#include "ops/WallClock.hpp"
#include "store/BotStore.hpp"
#include "store/ClubStore.hpp"

namespace semis::server {

namespace {

constexpr double kWritesBurst = 20;
constexpr double kWritesPerSecond = 10.0 / 60;

tl::unexpected<Refusal> refuse(ErrorCode code, std::string message) {
  return tl::unexpected(Refusal{code, std::move(message), std::nullopt});
}

const char* const kNoSuchBot = "no such bot of yours";

// A store's change refused: the answer for it (Done is not a refusal).
Refusal changeRefusal(store::BotChange change, int maxPerOwner) {
  switch (change) {
    case store::BotChange::NameTaken:
      return {ErrorCode::NameTaken, "this name is a bot's or a member's already", std::nullopt};
    case store::BotChange::LimitReached:
      return {ErrorCode::BotLimit, "at most " + std::to_string(maxPerOwner) + " bots: revoke one first", std::nullopt};
    case store::BotChange::Revoked:
      return {ErrorCode::NotAllowed, "this bot was revoked: create another", std::nullopt};
    case store::BotChange::NotAMember:
      return {ErrorCode::SignInNeeded, "bots belong to members: sign in first", std::nullopt};
    default:
      return {ErrorCode::NotFound, kNoSuchBot, std::nullopt};
  }
}

}  // namespace

bool BotService::allowWrite(const std::string& address) {
  std::lock_guard lock(mu_);
  return takeToken(writes_, address, kWritesBurst, kWritesPerSecond);
}

void BotService::onTokenEnded(std::function<void(const std::string&)> hook) {
  std::lock_guard lock(mu_);
  tokenEnded_ = std::move(hook);
}

void BotService::tokenEnded(const std::string& botId) {
  std::function<void(const std::string&)> hook;
  {
    std::lock_guard lock(mu_);
    hook = tokenEnded_;
  }
  if (hook) hook(botId);
}

BotInfo BotService::info(const store::BotRow& row) {
  return BotInfo{row.player, row.name, row.owner, players_.nameOf(row.owner), row.created, row.revoked != 0};
}

Outcome<BotIdentity> BotService::authenticate(std::string_view token) {
  if (!accounts::validToken(token)) return refuse(ErrorCode::BadToken, "a bot's token is 64 hex digits");
  auto row = store_.bots().botByTokenHash(accounts::hashToken(token));
  if (!row) return tl::unexpected(storeRefusal(row.error()));
  if (!*row) return refuse(ErrorCode::BadToken, "unknown or revoked token");
  return BotIdentity{(*row)->player, (*row)->name, (*row)->owner};
}

std::optional<BotInfo> BotService::byName(std::string_view name) {
  if (name.empty() || name.size() > 128) return std::nullopt;
  auto row = store_.bots().botByName(accounts::usernameKey(name));
  if (!row || !*row) return std::nullopt;
  return info(**row);
}

std::optional<BotInfo> BotService::byId(const std::string& id) {
  if (!protocol::validPublicId(id)) return std::nullopt;
  auto row = store_.bots().bot(id);
  if (!row || !*row) return std::nullopt;
  return info(**row);
}

Outcome<void> BotService::member(const Identity& owner) {
  if (!owner.stored) return refuse(ErrorCode::SignInNeeded, "bots belong to members: sign in first");
  auto account = store_.club().accountOf(owner.id);
  if (!account) return tl::unexpected(storeRefusal(account.error()));
  if (!*account) return refuse(ErrorCode::SignInNeeded, "bots belong to members: sign in first");
  return {};
}

Outcome<BotInfo> BotService::ownBot(const Identity& owner, const std::string& id) {
  if (auto m = member(owner); !m) return tl::unexpected(m.error());
  if (!protocol::validPublicId(id)) return refuse(ErrorCode::NotFound, kNoSuchBot);
  auto row = store_.bots().bot(id);
  if (!row) return tl::unexpected(storeRefusal(row.error()));
  // Another member's bot is as absent as no bot: its existence is not his business.
  if (!*row || (*row)->owner != owner.id) return refuse(ErrorCode::NotFound, kNoSuchBot);
  return info(**row);
}

Outcome<BotToken> BotService::create(const Identity& owner, const std::string& name) {
  if (auto m = member(owner); !m) return tl::unexpected(m.error());
  if (const std::string problem = nameProblem(name); !problem.empty()) return refuse(ErrorCode::BadName, problem);
  const std::string token = accounts::newToken();
  store::BotRow row{"", name, owner.id, nowMs(), 0};
  // A new player id that someone holds already (one in 10^17) meets the primary key: another id.
  for (int attempt = 0;; ++attempt) {
    row.player = accounts::randomId(10);
    auto made = store_.bots().createBot(row, accounts::usernameKey(name), accounts::hashToken(token),
                                        options_.maxPerOwner);
    if (made && *made == store::BotChange::Done) break;
    if (made) return tl::unexpected(changeRefusal(*made, options_.maxPerOwner));
    if (made.error().fault != store::Fault::Conflict) return tl::unexpected(storeRefusal(made.error()));
    // Another creation of the same name at once won the name's unique key.
    auto named = store_.bots().botByName(accounts::usernameKey(name));
    if (!named) return tl::unexpected(storeRefusal(named.error()));
    if (*named || attempt > 0) return tl::unexpected(changeRefusal(store::BotChange::NameTaken, 0));
  }
  logInfo("bot_created", {{"bot", row.player}, {"owner", owner.id}});
  return BotToken{info(row), token};
}

Outcome<std::vector<BotInfo>> BotService::list(const Identity& owner) {
  if (auto m = member(owner); !m) return tl::unexpected(m.error());
  auto rows = store_.bots().botsOf(owner.id);
  if (!rows) return tl::unexpected(storeRefusal(rows.error()));
  std::vector<BotInfo> out;
  out.reserve(rows->size());
  for (const store::BotRow& r : *rows) out.push_back(info(r));
  return out;
}

Outcome<BotInfo> BotService::rename(const Identity& owner, const std::string& id, const std::string& name) {
  auto bot = ownBot(owner, id);
  if (!bot) return bot;
  if (const std::string problem = nameProblem(name); !problem.empty()) return refuse(ErrorCode::BadName, problem);
  auto done = store_.bots().renameBot(owner.id, id, name, accounts::usernameKey(name));
  if (!done) {
    if (done.error().fault == store::Fault::Conflict) return tl::unexpected(changeRefusal(store::BotChange::NameTaken, 0));
    return tl::unexpected(storeRefusal(done.error()));
  }
  if (*done != store::BotChange::Done) return tl::unexpected(changeRefusal(*done, options_.maxPerOwner));
  // The games held here and on every instance show the new name.
  hub_.forgetPlayer("", id);
  bot->name = name;
  return bot;
}

Outcome<BotToken> BotService::newToken(const Identity& owner, const std::string& id) {
  auto bot = ownBot(owner, id);
  if (!bot) return tl::unexpected(bot.error());
  const std::string token = accounts::newToken();
  auto done = store_.bots().newBotToken(owner.id, id, accounts::hashToken(token));
  if (!done) return tl::unexpected(storeRefusal(done.error()));
  if (*done != store::BotChange::Done) return tl::unexpected(changeRefusal(*done, options_.maxPerOwner));
  tokenEnded(id);
  return BotToken{*bot, token};
}

Outcome<void> BotService::revoke(const Identity& owner, const std::string& id) {
  auto bot = ownBot(owner, id);
  if (!bot) return tl::unexpected(bot.error());
  auto done = store_.bots().revokeBot(owner.id, id, nowMs());
  if (!done) return tl::unexpected(storeRefusal(done.error()));
  if (*done != store::BotChange::Done) return tl::unexpected(changeRefusal(*done, options_.maxPerOwner));
  if (!bot->revoked) logInfo("bot_revoked", {{"bot", id}, {"owner", owner.id}});
  tokenEnded(id);
  return {};
}

}  // namespace semis::server
