#include "store/SessionStore.hpp"

#include <cstdlib>

namespace semis::store {

namespace {

long long number(const std::string& text) { return std::strtoll(text.c_str(), nullptr, 10); }
std::string num(long long v) { return std::to_string(v); }

class SqlSessions final : public SessionStore {
 public:
  explicit SqlSessions(SqlCall call) : call_(std::move(call)) {}

  StoreResult<void> describe(const std::string& tokenHash, const std::string& device, const std::string& address,
                             long long now) override {
    // (Parameters in the order they first appear: SQLite numbers "$N" names that way.)
    auto r = call_(true, "UPDATE tokens SET created=$1, seen=$1, device=$2, address=$3 WHERE token_hash=$4",
                   {num(now), device.substr(0, kDeviceChars), address, tokenHash});
    if (!r) return tl::unexpected(r.error());
    return {};
  }

  StoreResult<void> seen(const std::string& tokenHash, const std::string& address, long long now) override {
    auto r = call_(true, "UPDATE tokens SET seen=$1, address=$2 WHERE token_hash=$3", {num(now), address, tokenHash});
    if (!r) return tl::unexpected(r.error());
    return {};
  }

  StoreResult<std::vector<SessionRow>> list(const std::string& player) override {
    auto r = call_(false,
                   "SELECT token_hash,created,seen,device,address FROM tokens WHERE player=$1 "
                   "ORDER BY seen DESC, token_hash",
                   {player});
    if (!r) return tl::unexpected(r.error());
    std::vector<SessionRow> out;
    for (const auto& row : r->rows) {
      out.push_back(SessionRow{row[0].substr(0, kSessionIdChars), row[0], number(row[1]), number(row[2]), row[3], row[4]});
    }
    return out;
  }

  StoreResult<std::vector<std::string>> revoke(const std::string& player, const std::string& id) override {
    // An id is exactly a prefix's length: a shorter one would end several sessions at a guess.
    if (!id.empty() && id.size() != kSessionIdChars) return std::vector<std::string>{};
    auto r = call_(true,
                   "DELETE FROM tokens WHERE player=$1 AND ($2='' OR substr(token_hash,1,16)=$2) RETURNING token_hash",
                   {player, id});
    if (!r) return tl::unexpected(r.error());
    std::vector<std::string> out;
    for (const auto& row : r->rows) out.push_back(row[0]);
    return out;
  }

 private:
  SqlCall call_;
};

}  // namespace

std::unique_ptr<SessionStore> makeSessionStore(SqlCall call) { return std::make_unique<SqlSessions>(std::move(call)); }

}  // namespace semis::store
