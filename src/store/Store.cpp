#include "store/Store.hpp"

#include "store/SqliteStore.hpp"

namespace semis::store {

StoreResult<std::unique_ptr<Store>> openPostgres(const std::string& url, const OpenOptions& options);

StoreResult<std::unique_ptr<Store>> openStore(const std::string& where, const OpenOptions& options) {
  if (where.starts_with("postgresql://") || where.starts_with("postgres://")) return openPostgres(where, options);
  const std::string path = where.starts_with("sqlite:") ? where.substr(7) : where;
  if (path.empty()) return tl::unexpected(StoreError{Fault::Other, "no database path given"});
  return openSqlite(path, options);
}

const char* faultName(Fault fault) {
  switch (fault) {
    case Fault::Busy:
      return "busy";
    case Fault::Full:
      return "full";
    case Fault::ReadOnly:
      return "readonly";
    case Fault::Conflict:
      return "conflict";
    case Fault::Corrupt:
      return "corrupt";
    case Fault::Other:
      break;
  }
  return "other";
}

}  // namespace semis::store
