// db_errors.hpp: the one table that maps a database SQLSTATE to an HTTP error.
#pragma once

#include "api_error.hpp"
#include "db.hpp"

namespace corebank::httpd {

ApiError api_error_from_db(const DbError& error);

}  // namespace corebank::httpd
