#include "store/Store.hpp"

namespace semis::store {

StoreResult<std::unique_ptr<Store>> openPostgres(const std::string&, const OpenOptions&) {
  return tl::unexpected(StoreError{Fault::Other, "PostgreSQL is not built yet"});
}

}  // namespace semis::store
