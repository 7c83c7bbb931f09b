# hash_sources.cmake — write OUT, a header defining ECOPT_GEN_SOURCES_SHA256: the sha256 of the generator's sources
# (the files in FILES, relative to SRC, sorted, each as "<path>\n<contents>"), so that generated code names the
# code that made it (STYLE.md, "Generated code") without naming a commit.
# Usage: cmake -DSRC=<repo> -DOUT=<header> -DFILES="a;b;c" -P hash_sources.cmake
list(SORT FILES)
set(all "")
foreach(f IN LISTS FILES)
  file(READ "${SRC}/${f}" body)
  string(APPEND all "${f}\n${body}")
endforeach()
string(SHA256 h "${all}")
string(REPLACE ";" " " names "${FILES}")
file(WRITE "${OUT}.tmp" "/* written by cmake/hash_sources.cmake */\n#define ECOPT_GEN_SOURCES_SHA256 \"${h}\"\n#define ECOPT_GEN_SOURCES_LIST \"${names}\"\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
