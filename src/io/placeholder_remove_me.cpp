// Temporary: keeps asterune_io non-empty until the first reader lands.
namespace asterune::io { int io_library_marker = 0; }
