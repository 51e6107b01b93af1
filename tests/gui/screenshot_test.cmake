# Renders the GUI under Xvfb, writes a PNG, checks it is a non-blank image,
# and checks that the shell drew every default panel window (the app lists
# the titles of the windows drawn in its last frame with --list-windows).
# ARGS (a list) goes to `prism gui` too; EXTRA_WINDOWS must be drawn as well.
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(REMOVE ${OUT})
# An auth file of our own: xvfb-run's own temporary one is deleted before
# Xvfb stops, and that race sometimes makes xvfb-run exit 5.
set(auth ${OUT}.xauth)
execute_process(
  COMMAND ${XVFB_RUN} -a -f ${auth} -s "-screen 0 1600x1000x24" ${PRISM} gui
          ${EXAMPLE} --screenshot ${OUT} --frames 5 --list-windows ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
file(REMOVE ${auth})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "prism gui exited with ${rc}\n${out}\n${err}")
endif()
if(NOT EXISTS ${OUT})
  message(FATAL_ERROR "no screenshot written")
endif()
file(SIZE ${OUT} size)
# A blank 1600x1000 PNG compresses to a few KB; rendered text is far larger.
if(size LESS 20000)
  message(FATAL_ERROR "screenshot looks blank (${size} bytes)")
endif()
foreach(title "Jobs" "Source" "Invalidations" "Typed IR" "LLVM IR (raw)"
              "LLVM IR (optimised)" "Assembly" "Pipeline" "Stats" "Devices"
              ${EXTRA_WINDOWS})
  string(FIND "${out}" "window: ${title}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "window '${title}' was not drawn; the app listed:\n${out}")
  endif()
endforeach()
message(STATUS "screenshot ${OUT}: ${size} bytes")
