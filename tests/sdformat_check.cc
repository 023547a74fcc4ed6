// Loads each SDFormat file named on the command line with libsdformat's
// sdf::Root::Load (the reader Gazebo uses) and prints every error it reports,
// one per line, as "FILE: error: MESSAGE". Exit status: 0 when every file
// loads with zero errors, 1 otherwise, 2 for a wrong command line. Built by
// tests/sdformat_checker.py with g++ and pkg-config (libsdformat-dev).
#include <iostream>
#include <sstream>
#include <string>

#include <sdf/Root.hh>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " FILE.sdf...\n";
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    sdf::Root root;
    const sdf::Errors errors = root.Load(argv[i]);
    for (const sdf::Error& e : errors) {
      std::ostringstream text;
      text << e;
      std::string line = text.str();
      for (char& c : line) {
        if (c == '\n') c = ' ';
      }
      std::cout << argv[i] << ": error: " << line << "\n";
      status = 1;
    }
  }
  return status;
}
