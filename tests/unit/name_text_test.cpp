// name_text_test.cpp: the character set of client-chosen names
// (extension/core/name_text.hpp).
//
// Goal: a name is 1 to N characters of A-Z a-z 0-9 . _ : -, and nothing else
// (no space, no slash, nothing beyond ASCII), as the event source and the
// consent version checks need. Method: the edges, with no database.
#include <gtest/gtest.h>

#include <string>

#include "core/name_text.hpp"

namespace core = corebank::core;

// Goal: every allowed character, at the length limit, is a name.
TEST(NameTextTest, AcceptsTheCharacterSetUpToTheLimit) {
    EXPECT_TRUE(core::is_name_text("AZaz09._:-", 10));
    EXPECT_TRUE(core::is_name_text("x", 1));
    EXPECT_TRUE(core::is_name_text(std::string(100, 'a'), 100));
}

// Goal: empty, too long or any other character is refused.
TEST(NameTextTest, RefusesEmptyLongAndOtherCharacters) {
    EXPECT_FALSE(core::is_name_text("", 10));
    EXPECT_FALSE(core::is_name_text(std::string(101, 'a'), 100));
    for (const char* name : {"a b", "a/b", "a@b", "a+b", "a\tb", "caf\xc3\xa9"}) {
        EXPECT_FALSE(core::is_name_text(name, 10)) << name;
    }
}
