# The CUDA layer (src/cuda), built twice from the same sources:
#   cuzk_cuda      by nvcc, for a GPU. CUZK_CUDA = AUTO | ON | OFF.
#                  AUTO (default): on when check_language(CUDA) finds nvcc,
#                  except in sanitizer/fuzz builds; OFF: never; ON: nvcc
#                  required. With it, test_cuda exists.
#   cuzk_cuda_emu  by the host compiler with CUZK_SIMT defined, on the SIMT
#                  emulator cuzk_simt (src/simt), so that the kernels run and
#                  are tested without a GPU (and without nvcc).
#                  CUZK_CUDA_EMU = AUTO | ON | OFF; AUTO (default): on except
#                  in sanitizer/fuzz builds (the fibers' stack switches are not
#                  annotated for the sanitizers). With it, test_simt and
#                  test_cuda_emu exist (CTest label cuda-emu).
set(CUZK_CUDA AUTO CACHE STRING "CUDA backend: AUTO (when nvcc is found) | ON | OFF")
set_property(CACHE CUZK_CUDA PROPERTY STRINGS AUTO ON OFF)

string(TOUPPER "${CUZK_CUDA}" cuzk_cuda_mode)
set(cuzk_with_cuda OFF)
if(cuzk_cuda_mode STREQUAL "AUTO" AND (CUZK_SANITIZE OR CUZK_FUZZ))
  # Sanitizer and libFuzzer builds test the CPU code; nvcc's host compiler
  # (GCC) would not take clang's -fsanitize=fuzzer-no-link, and cudart is not
  # instrumented. CUZK_CUDA=ON still forces it.
  message(STATUS "cuzk: CUDA backend OFF in sanitizer/fuzz builds unless CUZK_CUDA=ON")
elseif(cuzk_cuda_mode STREQUAL "AUTO" OR cuzk_cuda_mode STREQUAL "ON")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(cuzk_with_cuda ON)
  elseif(cuzk_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR "CUZK_CUDA=ON but no CUDA compiler (nvcc) was found; set CUDACXX or CUZK_CUDA=OFF")
  endif()
elseif(NOT cuzk_cuda_mode STREQUAL "OFF")
  message(FATAL_ERROR "CUZK_CUDA must be AUTO, ON or OFF (got '${CUZK_CUDA}')")
endif()
message(STATUS "cuzk: CUDA backend ${cuzk_with_cuda} (CUZK_CUDA=${CUZK_CUDA})")

if(cuzk_with_cuda)
  # sm_90 = H100/H200. "90" builds SASS for sm_90 and embeds compute_90 PTX,
  # which the driver JIT-compiles on newer GPUs. Override on the command line
  # (-DCMAKE_CUDA_ARCHITECTURES="90;120") for other cards.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
  enable_language(CUDA)
  # C++20 in .cu files as in the rest (nvcc >= 12 accepts -std=c++20; the
  # targets' C++ standard also applies to their CUDA sources). CMake before
  # 3.26 knows no C++20 flag for nvcc and fails with "requires the language
  # dialect CUDA20", so it is told the flag here.
  if(NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.0)
      message(FATAL_ERROR "CUZK_CUDA: nvcc ${CMAKE_CUDA_COMPILER_VERSION} has no C++20; CUDA >= 12 is needed")
    endif()
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  find_package(CUDAToolkit REQUIRED)

  file(GLOB cuzk_cuda_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.cpp ${CMAKE_SOURCE_DIR}/src/cuda/*.cu)
  add_library(cuzk_cuda STATIC ${cuzk_cuda_srcs})
  target_include_directories(cuzk_cuda PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(cuzk_cuda PUBLIC cuzk_device cuzk_ntt cuzk_ff CUDA::cudart)
  # The directory's flags (-Wall, -march=native, sanitizers, ...) are for the
  # C++ compiler: the .cpp files keep them, the .cu files get only warnings
  # (passed to nvcc's host compiler) and nvcc's own options.
  get_property(cuzk_dir_opts DIRECTORY PROPERTY COMPILE_OPTIONS)
  set(cuzk_cuda_opts "")
  foreach(o IN LISTS cuzk_dir_opts)
    list(APPEND cuzk_cuda_opts "$<$<COMPILE_LANGUAGE:CXX>:${o}>")
  endforeach()
  list(APPEND cuzk_cuda_opts "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter>")
  set_property(TARGET cuzk_cuda PROPERTY COMPILE_OPTIONS ${cuzk_cuda_opts})
  target_compile_definitions(cuzk_cuda PUBLIC CUZK_HAVE_CUDA=1)
endif()

# ---- the SIMT emulator and the emulated CUDA layer --------------------------------------
set(CUZK_CUDA_EMU AUTO CACHE STRING "CUDA layer on the SIMT emulator: AUTO (not in sanitizer/fuzz builds) | ON | OFF")
set_property(CACHE CUZK_CUDA_EMU PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${CUZK_CUDA_EMU}" cuzk_emu_mode)
if(cuzk_emu_mode STREQUAL "AUTO")
  if(CUZK_SANITIZE OR CUZK_FUZZ)
    set(cuzk_with_cuda_emu OFF)
  else()
    set(cuzk_with_cuda_emu ON)
  endif()
elseif(cuzk_emu_mode STREQUAL "ON" OR cuzk_emu_mode STREQUAL "OFF")
  set(cuzk_with_cuda_emu ${cuzk_emu_mode})
else()
  message(FATAL_ERROR "CUZK_CUDA_EMU must be AUTO, ON or OFF (got '${CUZK_CUDA_EMU}')")
endif()
message(STATUS "cuzk: CUDA emulator ${cuzk_with_cuda_emu} (CUZK_CUDA_EMU=${CUZK_CUDA_EMU})")

if(cuzk_with_cuda_emu)
  file(GLOB cuzk_simt_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/simt/*.cpp)
  add_library(cuzk_simt STATIC ${cuzk_simt_srcs})
  target_include_directories(cuzk_simt PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(cuzk_simt PUBLIC TBB::tbb Threads::Threads)
  # Code that runs on fibers probes each page of a large stack frame in turn,
  # so that an overflow hits the fiber stack's guard region (and is reported)
  # rather than jumping past it.
  target_compile_options(cuzk_simt PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-fstack-clash-protection>)

  # CMake gives a source file one language, so each .cu is compiled as C++
  # through a generated one-line wrapper that #includes it (the wrapper's
  # dependency scan follows the .cu and its headers).
  file(GLOB cuzk_cuda_emu_cu CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.cu)
  file(GLOB cuzk_cuda_emu_cpp CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.cpp)
  set(cuzk_cuda_emu_srcs ${cuzk_cuda_emu_cpp})
  foreach(cu IN LISTS cuzk_cuda_emu_cu)
    get_filename_component(cu_name ${cu} NAME)
    set(wrapper ${CMAKE_BINARY_DIR}/cuda-emu/${cu_name}.cpp)
    file(CONFIGURE OUTPUT ${wrapper} CONTENT "#include \"${cu}\"\n")
    list(APPEND cuzk_cuda_emu_srcs ${wrapper})
  endforeach()
  add_library(cuzk_cuda_emu STATIC ${cuzk_cuda_emu_srcs})
  target_include_directories(cuzk_cuda_emu PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(cuzk_cuda_emu PUBLIC cuzk_simt cuzk_device cuzk_ntt cuzk_ff)
  # CUZK_SIMT selects the emulated build (cuzk::cuda::emu) in the layer's own
  # sources and in the tests built against it (tests/CMakeLists.txt), not in
  # everything that links it: the engine links both builds and reaches them
  # through cuda/backend.hpp's factories.
  target_compile_definitions(cuzk_cuda_emu PRIVATE CUZK_SIMT=1 PUBLIC CUZK_HAVE_CUDA_EMU=1)
endif()
