# Writes BookData.cpp (engine/BookData.hpp) from each ${BOOK_DIR}/NAME.book to ${BOOK_OUT}, with
# ${BOOK_TEMPLATE}: included by src/engine/CMakeLists.txt, and run with `cmake -P` by
# web/scripts/build-wasm.sh, so the program and the page carry the same books.
file(GLOB semis_books ${BOOK_DIR}/*.book)
list(SORT semis_books)
set(SEMIS_BOOK_DEFS "")
# A first empty entry keeps the array non-empty when there is no book.
set(SEMIS_BOOK_LIST "{\"\", \"\"}")
set(book_index 0)
foreach(book ${semis_books})
  get_filename_component(book_name ${book} NAME_WE)
  file(READ ${book} book_text)
  string(APPEND SEMIS_BOOK_DEFS "constexpr char kBook${book_index}[] = R\"semisbook(${book_text})semisbook\";\n")
  string(APPEND SEMIS_BOOK_LIST ", {\"${book_name}\", kBook${book_index}}")
  math(EXPR book_index "${book_index} + 1")
endforeach()
configure_file(${BOOK_TEMPLATE} ${BOOK_OUT} @ONLY)
