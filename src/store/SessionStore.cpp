#include "store/SessionStore.hpp"

#include "store/SqlRunner.hpp"

namespace semis::store {

namespace {

class SqlSessions final : public SessionStore {
 public:
  explicit SqlSessions(SqlRunner& runner) : run_(runner) {}

  StoreResult<void> describe(const std::string& tokenHash, const std::string& device, const std::string& address,
                             long long now) override {
    auto r = run_.run(Access::Write, "UPDATE tokens SET created=$1, seen=$1, device=$2, address=$3 WHERE token_hash=$4",
                      {now, device.substr(0, kDeviceChars), address, tokenHash});
    if (!r) return tl::unexpected(r.error());
    return {};
  }

  StoreResult<void> seen(const std::string& tokenHash, const std::string& address, long long now) override {
    auto r = run_.run(Access::Write, "UPDATE tokens SET seen=$1, address=$2 WHERE token_hash=$3", {now, address, tokenHash});
    if (!r) return tl::unexpected(r.error());
    return {};
  }

  StoreResult<std::vector<SessionRow>> list(const std::string& player) override {
    auto r = run_.run(Access::Read,
                      "SELECT token_hash,created,seen,device,address FROM tokens WHERE player=$1 "
                      "ORDER BY seen DESC, token_hash",
                      {player});
    if (!r) return tl::unexpected(r.error());
    std::vector<SessionRow> out;
    for (const SqlRow& row : r->rows) {
      const std::string hash = row.text(0);
      out.push_back(SessionRow{hash.substr(0, kSessionIdChars), hash, row.integer(1), row.integer(2), row.text(3),
                               row.text(4)});
    }
    return out;
  }

  StoreResult<std::vector<std::string>> revoke(const std::string& player, const std::string& id) override {
    // An id is exactly a prefix's length: a shorter one would end several sessions at a guess.
    if (!id.empty() && id.size() != kSessionIdChars) return std::vector<std::string>{};
    auto r = run_.run(Access::Write,
                      "DELETE FROM tokens WHERE player=$1 AND ($2='' OR substr(token_hash,1,16)=$2) RETURNING token_hash",
                      {player, id});
    if (!r) return tl::unexpected(r.error());
    std::vector<std::string> out;
    for (const SqlRow& row : r->rows) out.push_back(row.text(0));
    return out;
  }

 private:
  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<SessionStore> makeSessionStore(SqlRunner& runner) { return std::make_unique<SqlSessions>(runner); }

}  // namespace semis::store
