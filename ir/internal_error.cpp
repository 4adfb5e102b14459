#include "ir/internal_error.h"

namespace pir {

void internalError(const std::string& what) { throw InternalError(what); }

}  // namespace pir
