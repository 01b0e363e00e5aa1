#pragma once

#include "domain/providertables.h"

#include <cstddef>
#include <cstdint>

namespace gf::fuzz {

/// The project's provider tables (from the resources compiled into the fuzzer).
inline const ProviderTables &tables()
{
    return ProviderTables::builtin();
}

} // namespace gf::fuzz
