#include "settings_apply.hpp"

#include <iostream>

#include "db.hpp"
#include "db_errors.hpp"

namespace corebank::httpd {

int run_settings_apply(const Config& config, const std::vector<std::string>& args) {
    if (!args.empty()) {
        std::cerr << "corebankd: usage: corebankd settings apply [--config FILE]\n";
        return 2;
    }
    try {
        Db db(config.database_url, {});
        // Loaded, the module checks each value against its row's range.
        db.exec_once("LOAD 'corebank'", {});
        for (const auto& [name, value] : superuser_database_settings(config)) {
            // ALTER DATABASE takes no parameters: the statement is built by
            // format() with the name quoted as an identifier-like word (it is
            // a row of the settings table) and the value as a literal.
            const auto statement = db.exec_once("SELECT format('ALTER DATABASE %I SET %s = %L', current_database(), $1, $2)",
                                                {name, value})
                                       .scalar();
            db.exec_once(statement.value_or(""), {});
            std::cout << name << " = " << value << "\n";
        }
        return 0;
    } catch (const DbError& e) {
        std::cerr << "corebankd: settings apply: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "corebankd: settings apply: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace corebank::httpd
