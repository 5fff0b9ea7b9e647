# End-to-end checks of the headless CLI: outputs, report fields, and clean failures.
# Run with -DGVFLAB=<path to gvflab> -DWORK=<scratch folder>: all of it; CTest runs it a case
# at a time (cli.<case>, through cli_case.cmake), so that one failing case hides no other: a
# case starts at its "# @case NAME" line and makes its own files in its own WORK; everything
# above the first case is run by each. Failed runs name their outputs bad*: none may be left.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run_gvflab expect_ok)
  execute_process(COMMAND ${GVFLAB} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 240)
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
  # Under the asan preset (scripts/sanitize.sh cli): a report fails the run, error paths too.
  if(err MATCHES "Sanitizer|runtime error: ")
    message(FATAL_ERROR "gvflab ${ARGN}: sanitizer report: ${err}")
  endif()
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "gvflab ${ARGN} failed (${rc}): ${err}")
  endif()
  if(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "gvflab ${ARGN} should have failed")
  endif()
  if(NOT expect_ok)
    string(REGEX MATCHALL "\n" lines "${err}")
    list(LENGTH lines n)
    if(NOT err MATCHES "^gvflab: " OR err MATCHES "terminate|Aborted|Segmentation")
      message(FATAL_ERROR "gvflab ${ARGN}: expected one clear error line, got: ${err}")
    endif()
  endif()
endfunction()

# A volume (3D MetaImage, .mhd + raw of printable bytes: a bright ball in a dark box), 16x14x12.
function(write_ball_volume)
  set(raw "")
  foreach(z RANGE 11)
    foreach(y RANGE 13)
      foreach(x RANGE 15)
        math(EXPR r2 "(${x} - 7) * (${x} - 7) + (${y} - 6) * (${y} - 6) + (${z} - 6) * (${z} - 6)")
        if(r2 LESS 16)
          string(APPEND raw "z")
        else()
          string(APPEND raw "A")
        endif()
      endforeach()
    endforeach()
  endforeach()
  file(WRITE ${WORK}/ball.raw "${raw}")
  file(WRITE ${WORK}/ball.mhd "ObjectType = Image\nNDims = 3\nDimSize = 16 14 12\n"
       "ElementType = MET_UCHAR\nElementDataFile = ball.raw\n")
endfunction()

# A demo, short (later flags override the demo's): it runs and reports its iterations.
function(run_demo_briefly demo)
  run_gvflab(TRUE --headless --demo ${demo} --iterations 20 --snake-iterations 20)
  if(NOT last_out MATCHES "iterations")
    message(FATAL_ERROR "--demo ${demo} printed: ${last_out}")
  endif()
endfunction()

# A corrupt volume in WORK is refused naming it, and its outputs are not written.
function(run_corrupt_input bad)
  run_gvflab(FALSE --headless ${WORK}/${bad} --save-field ${WORK}/from_${bad}.mha
             --report ${WORK}/from_${bad}.json)
  if(NOT last_err MATCHES "${bad}")
    message(FATAL_ERROR "the error does not name ${bad}: ${last_err}")
  endif()
  if(EXISTS ${WORK}/from_${bad}.mha OR EXISTS ${WORK}/from_${bad}.json)
    message(FATAL_ERROR "a corrupt ${bad} still wrote an output")
  endif()
endfunction()

# @case version
run_gvflab(TRUE --version)
if(NOT last_out MATCHES "^gvflab [0-9]")
  message(FATAL_ERROR "--version printed: ${last_out}")
endif()

# @case help
run_gvflab(TRUE --help)
if(NOT last_out MATCHES "--save-field")
  message(FATAL_ERROR "--help lacks --save-field")
endif()
if(NOT last_out MATCHES "--target-error V +headless and viewer snakes" OR NOT last_out MATCHES "--composite"
   OR NOT last_out MATCHES "--trails")
  message(FATAL_ERROR "--help does not state the target error, --composite and --trails")
endif()

# @case list_devices
run_gvflab(TRUE --list-devices)
if(NOT last_out MATCHES "CPU|GPU")
  message(FATAL_ERROR "--list-devices printed: ${last_out}")
endif()
if(NOT last_out MATCHES "CL->GL: cl_khr_gl_sharing (yes|no), cl_khr_external_memory_opaque_fd (yes|no)")
  message(FATAL_ERROR "--list-devices lacks the CL->GL extensions line: ${last_out}")
endif()

# @case headless_outputs
run_gvflab(TRUE --headless --phantom u --phantom-size 96 --iterations 120 --mu 0.15
           --save-field ${WORK}/f.mha --save-magnitude ${WORK}/m.png --report ${WORK}/r.json)
foreach(f f.mha m.png r.json)
  if(NOT EXISTS ${WORK}/${f})
    message(FATAL_ERROR "headless run did not write ${f}")
  endif()
endforeach()
file(READ ${WORK}/r.json report)
foreach(key solver iterations error opencl_ms wall_ms)
  string(JSON value ERROR_VARIABLE jerr GET "${report}" ${key})
  if(jerr)
    message(FATAL_ERROR "report lacks ${key}: ${report}")
  endif()
endforeach()
string(JSON iters GET "${report}" iterations)
string(JSON err GET "${report}" error)
string(JSON ms GET "${report}" opencl_ms)
if(NOT iters EQUAL 120 OR NOT err GREATER 0 OR NOT ms GREATER 0)
  message(FATAL_ERROR "implausible report: ${report}")
endif()
file(SIZE ${WORK}/f.mha fsize)
if(fsize LESS 73728)  # 96*96*2 floats plus header
  message(FATAL_ERROR "field file too small: ${fsize}")
endif()

# @case spacing
# --spacing: GVF in world units. Accepted values are reported; the default is the input's
# (unit for a phantom); Euler's bound shrinks with fine spacing; bad values are refused naming
# --spacing before anything runs.
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --solver euler --iterations 10 --spacing 1,1,2.5
           --report ${WORK}/r3.json)
run_gvflab(TRUE --headless --phantom u --phantom-size 48 --iterations 10 --spacing 0.5,2
           --report ${WORK}/r2.json)
run_gvflab(TRUE --headless --phantom u --phantom-size 48 --iterations 10 --report ${WORK}/r1.json)
foreach(pair "r3.json 1 1 2.5" "r2.json 0.5 2" "r1.json 1 1")
  string(REPLACE " " ";" want "${pair}")
  list(POP_FRONT want file)
  file(READ ${WORK}/${file} report)
  string(JSON n LENGTH "${report}" spacing)
  set(got "")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON h GET "${report}" spacing ${i})
    string(REGEX REPLACE "\\.0+$" "" h "${h}")
    list(APPEND got "${h}")
  endforeach()
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${file}: spacing ${got}, expected ${want}: ${report}")
  endif()
endforeach()
# 1 x 0.5 pixels: Euler's bound is at most 2 / (4 (1 + 4)) = 0.1, so mu 0.2 (fine at unit
# spacing) is refused with the bound and the spacing in the sentence.
run_gvflab(TRUE --headless --phantom u --phantom-size 48 --iterations 5 --solver euler --mu 0.2)
run_gvflab(FALSE --headless --phantom u --phantom-size 48 --iterations 5 --solver euler --mu 0.2
           --spacing 1,0.5 --report ${WORK}/bad_mu.json)
if(NOT last_err MATCHES "spacing 1x0.5")
  message(FATAL_ERROR "the mu refusal does not name the spacing: ${last_err}")
endif()
foreach(bad "0,1" "1" "1,-2" "1,nan" "1,inf,1" "1,2,3,4" "1,,2" "a,b" "1e-9,1")
  run_gvflab(FALSE --headless --phantom u --phantom-size 48 --iterations 5 --spacing ${bad}
             --report ${WORK}/bad_${bad}.json)
  if(NOT last_err MATCHES "--spacing takes SX,SY or SX,SY,SZ")
    message(FATAL_ERROR "--spacing ${bad}: ${last_err}")
  endif()
endforeach()
file(GLOB left ${WORK}/bad*)
if(left)
  message(FATAL_ERROR "refused runs left outputs: ${left}")
endif()
# A volume's f and V0 are built with its coarse axis refined (1x1x4: 4 times, 34 MB for 64^3);
# on a device of 20 MiB they are built on its own samples, with a warning, and the run goes on.
string(REPEAT "A" 262144 flat)
file(WRITE ${WORK}/flat.raw "${flat}")
file(WRITE ${WORK}/flat.mhd "ObjectType = Image\nNDims = 3\nDimSize = 64 64 64\n"
     "ElementSpacing = 1 1 4\nElementType = MET_UCHAR\nElementDataFile = flat.raw\n")
run_gvflab(TRUE --headless ${WORK}/flat.mhd --iterations 2)
if(last_err MATCHES "own samples")
  message(FATAL_ERROR "refined build refused on a whole device: ${last_err}")
endif()
set(ENV{GVFLAB_TEST_DEVICE_MIB} 20)
run_gvflab(TRUE --headless ${WORK}/flat.mhd --iterations 2)
unset(ENV{GVFLAB_TEST_DEVICE_MIB})
if(NOT last_err MATCHES "built on its own samples")
  message(FATAL_ERROR "no fallback on 20 MiB: ${last_err}")
endif()

# @case snakes_contours_capture
# Snakes: a circle around the U and a polygon, contours JSON, capture map, report figures.
run_gvflab(TRUE --headless --phantom u --phantom-size 96 --iterations 900
           --snake circle:48,48,43 --snake polygon:10,10,20,10,15,18 --snake-iterations 2500
           --save-contours ${WORK}/c.json --capture-map ${WORK}/cap.png --report ${WORK}/s.json)
foreach(f c.json cap.png s.json)
  if(NOT EXISTS ${WORK}/${f})
    message(FATAL_ERROR "headless snake run did not write ${f}")
  endif()
endforeach()
file(READ ${WORK}/c.json contours)
string(JSON n LENGTH "${contours}" contours)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected 2 contours: ${contours}")
endif()
string(JSON conv GET "${contours}" contours 0 converged)
string(JSON its GET "${contours}" contours 0 iterations)
string(JSON npts LENGTH "${contours}" contours 0 points)
string(JSON y0 GET "${contours}" contours 0 points 0 1)
if(NOT conv STREQUAL "ON" OR its LESS 100 OR npts LESS 50 OR y0 LESS 0 OR y0 GREATER 96)
  message(FATAL_ERROR "implausible GVF snake (converged ${conv}, ${its} it, ${npts} nodes)")
endif()
# The deepest node inside the notch (x in 42..54, above y = 63.4) is near its bottom.
string(JSON npts LENGTH "${contours}" contours 0 points)
math(EXPR last "${npts} - 1")
set(deepest 0)
foreach(i RANGE ${last})
  string(JSON x GET "${contours}" contours 0 points ${i} 0)
  string(JSON y GET "${contours}" contours 0 points ${i} 1)
  if(x GREATER 42 AND x LESS 54 AND y LESS 65 AND y GREATER deepest)
    set(deepest ${y})
  endif()
endforeach()
if(deepest LESS 60)
  message(FATAL_ERROR "the GVF snake did not reach the notch bottom (deepest y ${deepest})")
endif()
file(READ ${WORK}/s.json report)
string(JSON agvf GET "${report}" capture_area_gvf)
string(JSON atrad GET "${report}" capture_area_traditional)
string(JSON nsn LENGTH "${report}" snakes)
math(EXPR atrad3 "${atrad} * 3")
if(NOT nsn EQUAL 2 OR NOT agvf GREATER atrad3)
  message(FATAL_ERROR "implausible snake report: ${report}")
endif()

# @case snake_far_traditional_stalled
# Honest states and per-snake forces. The issue's command: a traditional circle far from the U
# never moves and must say "stalled" after its first window, not converged.
run_gvflab(TRUE --headless --phantom u --snake circle:128,128,110 --snake-force traditional
           --save-contours ${WORK}/st.json --report ${WORK}/st_r.json)
file(READ ${WORK}/st.json contours)
foreach(key force state initial_points points iterations converged)
  string(JSON v ERROR_VARIABLE jerr GET "${contours}" contours 0 ${key})
  if(jerr)
    message(FATAL_ERROR "the contour lacks ${key}: ${contours}")
  endif()
  set(c_${key} "${v}")
endforeach()
string(JSON ni LENGTH "${contours}" contours 0 initial_points)
if(NOT c_force STREQUAL "traditional" OR NOT c_state STREQUAL "stalled"
   OR NOT c_converged STREQUAL "OFF" OR NOT c_iterations EQUAL 100 OR ni LESS 100)
  message(FATAL_ERROR "the far traditional snake should be stalled after one window: "
                      "${c_force} ${c_state} ${c_converged} ${c_iterations} it, ${ni} start nodes")
endif()
if(NOT last_out MATCHES "0 converged, 1 stalled, 0 moving")
  message(FATAL_ERROR "console line: ${last_out}")
endif()
file(READ ${WORK}/st_r.json report)
string(JSON s0 GET "${report}" snakes 0 state)
if(NOT s0 STREQUAL "stalled")
  message(FATAL_ERROR "report's snake state: ${report}")
endif()

# @case snake_force_per_snake
# @gvf overrides --snake-force for that snake only; this GVF circle converges in the notch.
run_gvflab(TRUE --headless --phantom u --phantom-size 96 --iterations 900 --snake-force traditional
           --snake circle:48,48,43@gvf --snake circle:48,48,20 --snake-iterations 2500
           --save-contours ${WORK}/st2.json)
file(READ ${WORK}/st2.json contours)
string(JSON f0 GET "${contours}" contours 0 force)
string(JSON s0 GET "${contours}" contours 0 state)
string(JSON c0 GET "${contours}" contours 0 converged)
string(JSON f1 GET "${contours}" contours 1 force)
if(NOT f0 STREQUAL "gvf" OR NOT s0 STREQUAL "converged" OR NOT c0 STREQUAL "ON"
   OR NOT f1 STREQUAL "traditional")
  message(FATAL_ERROR "@gvf twin: ${f0} ${s0} ${c0}, second snake ${f1}")
endif()

# @case snake_force_unknown
run_gvflab(FALSE --headless --phantom u --snake circle:48,48,10@balloon)
if(NOT last_err MATCHES "ggvf, vfc or distance")
  message(FATAL_ERROR "bad @FORCE: ${last_err}")
endif()

# @case fit_check_forces
# The fit check counts a force's own field (issue 43): on a device of 12 MiB a 512^2 run with a
# GVF snake fits (solve 9 MB, snake 1.7 MB); with a GGVF, VFC or distance snake (their fields 6,
# 2 and 4 MB) it is refused before anything is allocated.
set(ENV{GVFLAB_TEST_DEVICE_MIB} 12)
set(fit --headless --phantom u --phantom-size 512 --iterations 1 --snake-iterations 1)
run_gvflab(TRUE ${fit} --snake circle:256,256,100@gvf)
foreach(force ggvf vfc distance)
  run_gvflab(FALSE ${fit} --snake circle:256,256,100@${force})
  if(NOT last_err MATCHES "the ${force} field [0-9.]+ GiB")
    message(FATAL_ERROR "@${force} on 12 MiB: ${last_err}")
  endif()
endforeach()
unset(ENV{GVFLAB_TEST_DEVICE_MIB})

# Demos: each runs headless (short runs: later flags override the demo's), u-concavity with its
# two twins from one contour.
# @case demo_u_concavity
run_gvflab(TRUE --headless --demo u-concavity --iterations 300
           --snake-iterations 200 --save-contours ${WORK}/demo_u.json)
file(READ ${WORK}/demo_u.json contours)
string(JSON n LENGTH "${contours}" contours)
string(JSON f0 GET "${contours}" contours 0 force)
string(JSON f1 GET "${contours}" contours 1 force)
string(JSON i0 GET "${contours}" contours 0 initial_points)
string(JSON i1 GET "${contours}" contours 1 initial_points)
if(NOT n EQUAL 2 OR NOT f0 STREQUAL "gvf" OR NOT f1 STREQUAL "traditional"
   OR NOT i0 STREQUAL i1)
  message(FATAL_ERROR "u-concavity demo contours: ${contours}")
endif()

# @case demo_capture_range
run_demo_briefly(capture-range)

# @case demo_room
run_demo_briefly(room)

# @case demo_real_image
run_demo_briefly(real-image)

# @case demo_volume
run_demo_briefly(volume)

# The forces side by side (issue 43): eight snakes under four forces, each force's capture area
# in the report (one field per force, however many snakes hold it).
# @case demo_forces
run_gvflab(TRUE --headless --demo forces --iterations 100 --snake-iterations 100
           --report ${WORK}/forces.json)
file(READ ${WORK}/forces.json report)
string(JSON n LENGTH "${report}" snakes)
string(JSON f2 GET "${report}" snakes 2 force)
string(JSON f7 GET "${report}" snakes 7 force)
string(JSON area_ggvf GET "${report}" capture_area_ggvf)
string(JSON area_vfc GET "${report}" capture_area_vfc)
string(JSON area_distance GET "${report}" capture_area_distance)
if(NOT n EQUAL 8 OR NOT f2 STREQUAL "ggvf" OR NOT f7 STREQUAL "distance" OR area_ggvf LESS 1
   OR area_vfc LESS 1 OR area_distance LESS 1
   OR NOT last_out MATCHES "gvf, ggvf, vfc and distance")
  message(FATAL_ERROR "forces demo: ${last_out} ${report}")
endif()

# The 3D lesson: on the engine's cup (64^3, a well 6.4 voxels wide about x = y = 32 from the top
# at z = 52.5 down to its floor at 20.5) the GVF surface reaches deeper into the well than its
# traditional twin from the same sphere: the lowest vertex over the well's floor near its axis.
# With its own defaults (issue 37, item 6): no warning (its mu is valid for its solver), and
# each surface ends within its 3000 iterations as the caption says: GVF converged down the
# well, grad f stalled over its mouth.
# @case demo_surface
run_gvflab(TRUE --headless --demo surface --save-surfaces ${WORK}/cup.obj
           --report ${WORK}/cup.json)
if(last_err MATCHES "mu =|[Cc]lamp|warning")
  message(FATAL_ERROR "surface demo warns: ${last_err}")
endif()
file(READ ${WORK}/cup.json report)
foreach(i force state)
  string(JSON ${i}0 GET "${report}" surfaces 0 ${i})
  string(JSON ${i}1 GET "${report}" surfaces 1 ${i})
endforeach()
string(JSON iterations0 GET "${report}" surfaces 0 iterations)
string(JSON iterations1 GET "${report}" surfaces 1 iterations)
if(NOT force0 STREQUAL "gvf" OR NOT force1 STREQUAL "traditional" OR NOT state0 STREQUAL
   "converged" OR NOT state1 STREQUAL "stalled" OR iterations0 GREATER_EQUAL 3000
   OR iterations1 GREATER_EQUAL 3000)
  message(FATAL_ERROR "surface demo: ${report}")
endif()
foreach(i 1 2)
  file(STRINGS ${WORK}/cup-${i}.obj vertices REGEX "^v ")
  set(lowest${i} 99)
  foreach(v IN LISTS vertices)
    string(REPLACE " " ";" xyz "${v}")
    list(GET xyz 1 x)
    list(GET xyz 2 y)
    list(GET xyz 3 z)
    if(x GREATER 28 AND x LESS 36 AND y GREATER 28 AND y LESS 36 AND z GREATER 20
       AND z LESS lowest${i})
      set(lowest${i} ${z})
    endif()
  endforeach()
endforeach()
# CMake's math is integer: whole voxels. The well is 25.6 deep: the GVF surface reaches its
# floor (z 26.9), the traditional twin stays within a few voxels of its mouth (z 52.5).
string(REGEX REPLACE "\\..*" "" gvf_lowest "${lowest1}")
string(REGEX REPLACE "\\..*" "" traditional_lowest "${lowest2}")
math(EXPR deeper "${traditional_lowest} - ${gvf_lowest}")
if(deeper LESS 15)
  message(FATAL_ERROR "surface demo: the GVF surface's lowest point in the well is z = "
          "${lowest1}, its traditional twin's ${lowest2}: GVF should be deeper")
endif()

# @case demo_region
run_gvflab(TRUE --headless --demo region --phantom-size 128 --save-contours ${WORK}/dr.json)

# @case demo_unknown
run_gvflab(FALSE --headless --demo teapot)
if(NOT last_err MATCHES "u-concavity")
  message(FATAL_ERROR "unknown demo: ${last_err}")
endif()

# @case snake_circle_incomplete
run_gvflab(FALSE --headless --phantom u --snake circle:48,48 --save-contours ${WORK}/bad.json)
if(NOT last_err MATCHES "circle needs")
  message(FATAL_ERROR "bad snake spec: ${last_err}")
endif()

# @case snake_outside_image
run_gvflab(FALSE --headless --phantom u --phantom-size 64 --snake circle:100,30,10
           --save-contours ${WORK}/bad.json)
if(NOT last_err MATCHES "outside")
  message(FATAL_ERROR "snake outside the image: ${last_err}")
endif()

# @case storage_f16_local
# 16-bit storage in local tiles: same report, with the storage described.
run_gvflab(TRUE --headless --phantom room --phantom-size 80 --iterations 30 --precision f16
           --memory local --report ${WORK}/r16.json)
file(READ ${WORK}/r16.json report16)
string(JSON p16 GET "${report16}" precision)
string(JSON m16 GET "${report16}" memory)
string(JSON b16 GET "${report16}" device_bytes)
if(NOT p16 STREQUAL "f16" OR NOT m16 STREQUAL "local" OR NOT b16 EQUAL 76800)  # 80*80*12
  message(FATAL_ERROR "16-bit report: ${report16}")
endif()

# Bad inputs: one line on stderr, non-zero exit, no output left behind.
# @case image_empty
file(WRITE ${WORK}/empty.png "")
run_gvflab(FALSE --headless ${WORK}/empty.png --save-field ${WORK}/bad.mha --report ${WORK}/bad.json)

# @case image_not_an_image
file(WRITE ${WORK}/text.png "not an image")
run_gvflab(FALSE --headless ${WORK}/text.png --save-field ${WORK}/bad.mha --report ${WORK}/bad.json)

# @case image_missing
run_gvflab(FALSE --headless ${WORK}/missing.png --save-field ${WORK}/bad.mha
           --report ${WORK}/bad.json)

# @case viewer_image_missing
# The viewer too: a named image it cannot read is refused, never replaced by the phantom in a
# saved figure (it saved the U with exit code 0).
run_gvflab(FALSE ${WORK}/missing.png --frames 5 --screenshot ${WORK}/viewer_missing.png)
if(EXISTS ${WORK}/viewer_missing.png OR NOT last_err MATCHES "missing.png' does not exist")
  message(FATAL_ERROR "the viewer replaced a missing image: ${last_err}")
endif()

# @case mu_beyond_euler_stability
run_gvflab(FALSE --headless --phantom u --solver euler --mu 0.24 --save-field ${WORK}/bad.mha)
if(NOT last_err MATCHES "stability")
  message(FATAL_ERROR "unstable mu: ${last_err}")
endif()

# @case mu_not_a_number
run_gvflab(FALSE --headless --phantom u --mu abc --save-field ${WORK}/bad.mha)

# @case iterations_negative
run_gvflab(FALSE --headless --phantom u --iterations -5)

# @case device_unknown
run_gvflab(FALSE --headless --phantom u --device no-such-device --report ${WORK}/bad.json)

# @case save_field_missing_folder
run_gvflab(FALSE --headless --phantom u --save-field ${WORK}/no/such/dir/f.mha)

# @case region_snake_report
# Region snake: contours JSON in the snakes' format and its report.
run_gvflab(TRUE --headless --phantom blob --phantom-size 128 --region-snake --d-max 8
           --save-contours ${WORK}/c.json --report ${WORK}/rr.json)
file(READ ${WORK}/c.json contours)
string(JSON npts LENGTH "${contours}" contours 0 points)
string(JSON x0 GET "${contours}" contours 0 points 0 0)
string(JSON y0 GET "${contours}" contours 0 points 0 1)
if(npts LESS 8 OR x0 LESS 0 OR x0 GREATER 127 OR y0 LESS 0 OR y0 GREATER 127)
  message(FATAL_ERROR "implausible contours: ${contours}")
endif()
file(READ ${WORK}/rr.json rreport)
string(JSON solver GET "${rreport}" solver)
string(JSON nodes GET "${rreport}" nodes)
string(JSON nt GET "${rreport}" n_target)
if(NOT solver STREQUAL "region-snake" OR NOT nodes EQUAL npts OR NOT nt GREATER 100)
  message(FATAL_ERROR "implausible region report: ${rreport}")
endif()

# @case region_snake_rectangle
run_gvflab(TRUE --headless --phantom blob --phantom-size 64 --region-snake 4,4,50,50
           --noise gamma --save-contours ${WORK}/c2.json)

# @case region_snake_rectangle_outside
run_gvflab(FALSE --headless --phantom blob --phantom-size 64 --region-snake 200,200,50,50
           --save-contours ${WORK}/bad_c.json)

# @case target_error_both_solvers
# Multigrid and --target-error: both solvers reach the same ε; multigrid in far fewer
# iterations; the report names the solver, its parameters and whether the target was reached.
foreach(solver euler multigrid)
  run_gvflab(TRUE --headless --phantom u --phantom-size 64 --mu 0.1 --solver ${solver}
             --target-error 2e-5 --iterations 20000 --report ${WORK}/t_${solver}.json)
  file(READ ${WORK}/t_${solver}.json treport)
  string(JSON s GET "${treport}" solver)
  string(JSON e GET "${treport}" error)
  string(JSON reached GET "${treport}" reached)
  string(JSON it_${solver} GET "${treport}" iterations)
  if(NOT s STREQUAL solver OR NOT reached OR e GREATER 2e-5)
    message(FATAL_ERROR "target-error run of ${solver}: ${treport}")
  endif()
endforeach()
if(NOT it_multigrid LESS 6 OR NOT it_euler GREATER 200)
  message(FATAL_ERROR "iterations to 2e-5: euler ${it_euler}, multigrid ${it_multigrid}")
endif()

# @case multigrid_parameters_report
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --solver multigrid --mg-a 2 --mg-b 1
           --mg-c 2 --mg-cycle twogrid --iterations 1 --report ${WORK}/mg.json)
file(READ ${WORK}/mg.json mreport)
string(JSON ma GET "${mreport}" mg_a)
string(JSON mb GET "${mreport}" mg_b)
string(JSON mcycle GET "${mreport}" mg_cycle)
string(JSON levels GET "${mreport}" levels)
if(NOT ma EQUAL 2 OR NOT mb EQUAL 1 OR NOT mcycle STREQUAL "twogrid" OR NOT levels EQUAL 6)
  message(FATAL_ERROR "multigrid report: ${mreport}")
endif()
# The schedule by number too (3: twogrid); auto resolves by dims, full multigrid in 2D.
run_gvflab(TRUE --headless --phantom u --phantom-size 32 --solver multigrid --iterations 1
           --report ${WORK}/mgauto.json)
file(READ ${WORK}/mgauto.json mauto)
string(JSON mautocycle GET "${mauto}" mg_cycle)
if(NOT mautocycle STREQUAL "fmg")
  message(FATAL_ERROR "multigrid's auto cycle in 2D: ${mauto}")
endif()

# @case mg_cycle_unknown
run_gvflab(FALSE --headless --phantom u --solver multigrid --mg-cycle wcycle)
if(NOT last_err MATCHES "--mg-cycle: cycle is one of auto, fmg, vcycles, twogrid, not 'wcycle'")
  message(FATAL_ERROR "unknown --mg-cycle: ${last_err}")
endif()
# Multigrid has no stability bound (its smoother is diagonally dominant for every mu): mu 0.5
# runs; Euler refuses it naming its bound.
# @case mu_multigrid_no_bound
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --solver multigrid --mu 0.5
           --iterations 3 --report ${WORK}/mg05.json)
file(READ ${WORK}/mg05.json mg05)
string(JSON mg05mu GET "${mg05}" mu)
string(JSON mg05err GET "${mg05}" error)
if(NOT mg05mu EQUAL 0.5 OR NOT mg05err LESS 1)
  message(FATAL_ERROR "multigrid at mu 0.5: ${mg05}")
endif()

# @case mu_euler_bound_named
run_gvflab(FALSE --headless --phantom u --phantom-size 64 --mu 0.5 --iterations 3)
if(NOT last_err MATCHES "Euler stability bound 0\\.2")
  message(FATAL_ERROR "Euler at mu 0.5: ${last_err}")
endif()

# @case mu_out_of_range
run_gvflab(FALSE --headless --phantom u --solver multigrid --mu 20000)

# @case solver_unknown
run_gvflab(FALSE --headless --phantom u --solver jacobi)

# @case multigrid_no_smoothing
run_gvflab(FALSE --headless --phantom u --solver multigrid --mg-b 0 --mg-c 0)

# @case target_error_negative
run_gvflab(FALSE --headless --phantom u --target-error -1)

# Fields that are done (gvflab/field_solve.hpp): with no --iterations the field is solved to
# 1e-6 by multigrid; --solver euler runs Euler to the same error; --iterations alone is a fixed
# count of Euler iterations.
# @case default_solve_multigrid
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --report ${WORK}/default.json)
file(READ ${WORK}/default.json dreport)
string(JSON ds GET "${dreport}" solver)
string(JSON dt GET "${dreport}" target_error)
string(JSON dr GET "${dreport}" reached)
string(JSON de GET "${dreport}" error)
if(NOT ds STREQUAL "multigrid" OR NOT dt EQUAL 1e-6 OR NOT dr OR de GREATER 1e-6)
  message(FATAL_ERROR "the default run is not multigrid to 1e-6: ${dreport}")
endif()

# @case solver_euler_to_target
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --solver euler --report ${WORK}/deuler.json)
file(READ ${WORK}/deuler.json dreport)
string(JSON ds GET "${dreport}" solver)
string(JSON dr GET "${dreport}" reached)
string(JSON di GET "${dreport}" iterations)
if(NOT ds STREQUAL "euler" OR NOT dr OR NOT di GREATER 500)
  message(FATAL_ERROR "--solver euler does not run to 1e-6: ${dreport}")
endif()

# @case iterations_fixed_count
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --iterations 50 --report ${WORK}/dfixed.json)
file(READ ${WORK}/dfixed.json dreport)
string(JSON ds GET "${dreport}" solver)
string(JSON di GET "${dreport}" iterations)
string(JSON dt ERROR_VARIABLE nojson GET "${dreport}" target_error)
if(NOT ds STREQUAL "euler" OR NOT di EQUAL 50 OR NOT nojson)
  message(FATAL_ERROR "--iterations 50 is not a fixed count: ${dreport}")
endif()

# @case composite_in_viewer
run_gvflab(FALSE --phantom u --composite ${WORK}/c.png)

# @case composite_not_png
run_gvflab(FALSE --headless --phantom u --composite ${WORK}/c.jpg)

# @case trails_negative
run_gvflab(FALSE --headless --phantom u --trails -3)

# @case volume_multigrid
# A volume (the ball) runs in 3D and --save-field writes a 3-channel MetaImage.
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --solver multigrid --mu 0.1 --target-error 1e-6
           --save-field ${WORK}/f3.mha --report ${WORK}/r3.json)
file(READ ${WORK}/r3.json r3)
string(JSON depth GET "${r3}" depth)
string(JSON reached GET "${r3}" reached)
file(READ ${WORK}/f3.mha f3head LIMIT 300)
if(NOT depth EQUAL 12 OR NOT reached OR NOT f3head MATCHES "DimSize = 16 14 12"
   OR NOT f3head MATCHES "ElementNumberOfChannels = 3")
  message(FATAL_ERROR "3D run: ${r3} / ${f3head}")
endif()
file(SIZE ${WORK}/f3.mha f3size)
if(f3size LESS 32256)  # 16 * 14 * 12 voxels * 3 floats
  message(FATAL_ERROR "3D field too small: ${f3size} bytes")
endif()

# @case volume_euler
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --solver euler --mu 0.1 --iterations 50)

# Issue 18: the default mu (0.15) is above the 3D Euler bound (~0.146 here); a default the
# program chose must fit (it runs at the bound), an explicit mu beyond it is refused naming it.
# @case volume_default_mu_fitted
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --iterations 20 --report ${WORK}/r3mu.json)
file(READ ${WORK}/r3mu.json r3mu)
string(JSON mu3 GET "${r3mu}" mu)
if(NOT mu3 GREATER 0.1 OR NOT mu3 LESS 0.15)
  message(FATAL_ERROR "3D default mu should be fitted below 0.15: ${mu3}")
endif()

# @case volume_mu_beyond_bound
write_ball_volume()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --mu 0.15 --iterations 20)
if(NOT last_err MATCHES "stability bound 0\\.1[0-9]+ for this volume")
  message(FATAL_ERROR "explicit 3D mu beyond the bound: ${last_err}")
endif()

# @case volume_not_nifti
file(WRITE ${WORK}/not_nifti.nii "not a nifti file at all")
run_gvflab(FALSE --headless ${WORK}/not_nifti.nii)

# @case contours_geojson_field_nrrd
# Formats: contours by extension (GeoJSON, CSV, SVG), fields as NRRD and NIfTI, bad names and
# corrupt volumes refused with the file named and nothing written.
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --iterations 200
           --snake circle:32,32,28 --snake-iterations 300 --save-contours ${WORK}/c.geojson
           --save-field ${WORK}/f.nrrd)
file(READ ${WORK}/c.geojson geo)
string(JSON gtype GET "${geo}" type)
string(JSON gkind GET "${geo}" features 0 geometry type)
string(JSON gforce GET "${geo}" features 0 properties force)
string(JSON gstate GET "${geo}" features 0 properties state)
string(JSON gits GET "${geo}" features 0 properties iterations)
if(NOT gtype STREQUAL "FeatureCollection" OR NOT gkind STREQUAL "Polygon" OR
   NOT gforce STREQUAL "gvf" OR NOT gstate MATCHES "^(converged|moving)$" OR NOT gits GREATER 0)
  message(FATAL_ERROR "implausible GeoJSON: ${geo}")
endif()
file(READ ${WORK}/f.nrrd nrrd LIMIT 8)
if(NOT nrrd MATCHES "^NRRD000[1-5]")
  message(FATAL_ERROR "f.nrrd starts with ${nrrd}")
endif()

# @case contours_csv
run_gvflab(TRUE --headless --phantom blob --phantom-size 64 --region-snake --d-max 8
           --save-contours ${WORK}/r.csv)
file(STRINGS ${WORK}/r.csv csv)
list(GET csv 0 csvhead)
list(LENGTH csv csvlines)
if(NOT csvhead STREQUAL "contour,force,state,iterations,point,x,y" OR csvlines LESS 9)
  message(FATAL_ERROR "implausible CSV: ${csv}")
endif()

# @case contours_svg
run_gvflab(TRUE --headless --phantom blob --phantom-size 64 --region-snake --d-max 8
           --save-contours ${WORK}/r.svg)
file(READ ${WORK}/r.svg svg)
if(NOT svg MATCHES "<svg[^>]*viewBox=\"0 0 64 64\"" OR NOT svg MATCHES "<path d=\"M ")
  message(FATAL_ERROR "implausible SVG: ${svg}")
endif()

# @case contours_bad_extension
run_gvflab(FALSE --headless --phantom u --snake circle:48,48,20 --save-contours ${WORK}/c.txt)
if(NOT last_err MATCHES "c.txt" OR NOT last_err MATCHES "geojson")
  message(FATAL_ERROR "bad contour extension: ${last_err}")
endif()

# @case field_bad_extension
run_gvflab(FALSE --headless --phantom u --save-field ${WORK}/f.png)
if(NOT last_err MATCHES "f.png" OR NOT last_err MATCHES "nii")
  message(FATAL_ERROR "bad field extension: ${last_err}")
endif()

# @case corrupt_nifti
file(WRITE ${WORK}/corrupt.nii "this is not a NIfTI header, nor anything else at all...")
run_corrupt_input(corrupt.nii)

# @case corrupt_nrrd
file(WRITE ${WORK}/corrupt.nrrd "NRRD0004\ntype: float\ndimension: 3\nsizes: 9000 9000 9000\n\n")
run_corrupt_input(corrupt.nrrd)

# @case record_without_display
# Issue 18: --record without an X server aborted inside Qt (rc 134) and before the input was
# checked. Inputs first, then one sentence pointing at xvfb-run.
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                        --unset=QT_QPA_PLATFORM
                ${GVFLAB} --headless --phantom u --phantom-size 64 --record ${WORK}/nodisp.mp4
                --frames 2 RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^gvflab: .*xvfb-run" OR EXISTS ${WORK}/nodisp.mp4)
  message(FATAL_ERROR "--record without a display: rc ${rc}: ${err}")
endif()

# @case figure_without_display
# --screenshot and --composite without an X server aborted inside Qt (rc 134).
foreach(flag --screenshot --composite)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                          --unset=QT_QPA_PLATFORM
                  ${GVFLAB} --headless --phantom u --phantom-size 64 --iterations 2
                  ${flag} ${WORK}/nodisp.png RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET
                  TIMEOUT 60)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^gvflab: .*xvfb-run" OR EXISTS ${WORK}/nodisp.png)
    message(FATAL_ERROR "${flag} without a display: rc ${rc}: ${err}")
  endif()
endforeach()

# @case figure_input_before_display
# The figure path checked the display first: with no display a missing input was not named.
foreach(flag --screenshot --composite)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                          --unset=QT_QPA_PLATFORM
                  ${GVFLAB} --headless ${WORK}/missing.png ${flag} ${WORK}/nodisp.png
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 60)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "missing.png' does not exist")
    message(FATAL_ERROR "${flag} checks its input before the display: rc ${rc}: ${err}")
  endif()
endforeach()

# @case record_input_before_display
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                ${GVFLAB} --headless ${WORK}/missing.png --record ${WORK}/nodisp.mp4 --frames 2
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err MATCHES "missing.png' does not exist")
  message(FATAL_ERROR "--record checks its input before the display: rc ${rc}: ${err}")
endif()

# @case record_input_missing
# A missing input with --record recorded the U phantom and exited 0.
run_gvflab(FALSE --headless ${WORK}/missing.png --record ${WORK}/sub.mp4 --frames 5)
if(EXISTS ${WORK}/sub.mp4 OR NOT last_err MATCHES "missing.png")
  message(FATAL_ERROR "a missing input was replaced: ${last_err}")
endif()

# @case device_kind
# --device gpu/cpu: that kind, or a refusal listing the devices found (never the other kind).
run_gvflab(TRUE --list-devices)
set(devices "${last_out}")
foreach(kind gpu cpu)
  string(TOUPPER ${kind} KIND)
  if(devices MATCHES "\\[${KIND},")
    run_gvflab(TRUE --headless --phantom u --phantom-size 32 --iterations 2 --device ${kind}
               --report ${WORK}/dev_${kind}.json)
  else()
    run_gvflab(FALSE --headless --phantom u --phantom-size 32 --iterations 2 --device ${kind})
    if(NOT last_err MATCHES "No OpenCL ${KIND} device was found.*Devices found: ")
      message(FATAL_ERROR "--device ${kind} without one: ${last_err}")
    endif()
  endif()
endforeach()

# @case figure_quiet_stderr
# A successful headless figure says nothing on stderr, also as root under xvfb-run where
# XDG_RUNTIME_DIR is unset (Qt's line about it was the only thing printed there).
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=XDG_RUNTIME_DIR
                ${GVFLAB} --headless --phantom u --phantom-size 64 --iterations 20
                --screenshot ${WORK}/quiet.png --size 64x64
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "a successful figure run printed on stderr (rc ${rc}): ${err}")
endif()

# @case open_snakes
# Open snakes (line:, path: with :boundary=B): written open ("closed": false, GeoJSON
# LineString, SVG path without Z), fixed ends where they started, the report's length.
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --iterations 200 --snake line:20,6,44,6
           --snake path:10,40,20,45,30,40:boundary=fixed@traditional --snake-iterations 300
           --save-contours ${WORK}/c.json --report ${WORK}/r.json)
file(READ ${WORK}/c.json cj)
string(JSON closed0 GET "${cj}" contours 0 closed)
string(JSON bound0 GET "${cj}" contours 0 boundary)
string(JSON bound1 GET "${cj}" contours 1 boundary)
string(JSON x1 GET "${cj}" contours 1 points 0 0)
string(JSON y1 GET "${cj}" contours 1 points 0 1)
string(JSON n1 LENGTH "${cj}" contours 1 points)
math(EXPR last1 "${n1} - 1")
string(JSON xe GET "${cj}" contours 1 points ${last1} 0)
string(JSON ye GET "${cj}" contours 1 points ${last1} 1)
if(NOT closed0 STREQUAL "OFF" OR NOT bound0 STREQUAL "free" OR NOT bound1 STREQUAL "fixed" OR
   NOT x1 EQUAL 10 OR NOT y1 EQUAL 40 OR NOT xe EQUAL 30 OR NOT ye EQUAL 40)
  message(FATAL_ERROR "open snakes' contours: ${cj}")
endif()
file(READ ${WORK}/r.json report)
string(JSON rb GET "${report}" snakes 1 boundary)
string(JSON rl GET "${report}" snakes 1 length)
if(NOT rb STREQUAL "fixed" OR NOT rl GREATER 15)
  message(FATAL_ERROR "open snakes' report: ${report}")
endif()
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --iterations 100
           --snake path:10,40,20,45,30,40:boundary=free-fixed --snake circle:32,32,28
           --snake-iterations 50 --save-contours ${WORK}/c.geojson)
file(READ ${WORK}/c.geojson geo)
string(JSON g0 GET "${geo}" features 0 geometry type)
string(JSON gb GET "${geo}" features 0 properties boundary)
string(JSON g1 GET "${geo}" features 1 geometry type)
if(NOT g0 STREQUAL "LineString" OR NOT gb STREQUAL "free-fixed" OR NOT g1 STREQUAL "Polygon")
  message(FATAL_ERROR "open snake GeoJSON: ${geo}")
endif()
run_gvflab(TRUE --headless --phantom u --phantom-size 64 --iterations 100
           --snake line:20,6,44,6:boundary=fixed-free --snake-iterations 50
           --save-contours ${WORK}/c.svg)
file(READ ${WORK}/c.svg svg)
if(NOT svg MATCHES "<path d=\"M 20 6 L [^\"Z]*\"")
  message(FATAL_ERROR "open snake SVG: ${svg}")
endif()

# @case open_snakes_refused
foreach(spec "line:1,2,3" "polygon:10,10,20,10,15,18:boundary=free" "path:1,1,5,5:boundary=open"
        "line:5,5,5,5" "path:1,1,5,5:boundary=periodic")
  run_gvflab(FALSE --headless --phantom u --phantom-size 32 --snake ${spec})
  if(NOT last_err MATCHES "--snake")
    message(FATAL_ERROR "--snake ${spec}: ${last_err}")
  endif()
endforeach()

# @case user_edge_map_and_v0
# --edge-map F replaces f: with a blank edge map the image no longer matters (two phantoms give
# the same field, another than the built f's); --v0 F takes a field file of the input's size.
set(blank "P2\n32 32\n255\n")
foreach(i RANGE 1023)
  string(APPEND blank "0\n")
endforeach()
file(WRITE ${WORK}/blank.pgm "${blank}")
foreach(p u blob)
  run_gvflab(TRUE --headless --phantom ${p} --phantom-size 32 --iterations 20
             --edge-map ${WORK}/blank.pgm --save-field ${WORK}/${p}.mha)
endforeach()
run_gvflab(TRUE --headless --phantom u --phantom-size 32 --iterations 20
           --save-field ${WORK}/built.mha)
file(SHA256 ${WORK}/u.mha hu)
file(SHA256 ${WORK}/blob.mha hb)
file(SHA256 ${WORK}/built.mha hbuilt)
if(NOT hu STREQUAL hb OR hu STREQUAL hbuilt)
  message(FATAL_ERROR "--edge-map was not the edge map (${hu} ${hb} ${hbuilt})")
endif()
run_gvflab(TRUE --headless --phantom blob --phantom-size 32 --iterations 20
           --v0 ${WORK}/built.mha --snake line:4,4,28,4 --save-field ${WORK}/v.mha)
file(SHA256 ${WORK}/v.mha hv)
if(hv STREQUAL hbuilt)
  message(FATAL_ERROR "--v0 gave the same field as the built V0")
endif()

# @case user_edge_map_and_v0_refused
set(small "P2\n8 8\n255\n")
foreach(i RANGE 63)
  string(APPEND small "9\n")
endforeach()
file(WRITE ${WORK}/small.pgm "${small}")
run_gvflab(TRUE --headless --phantom u --phantom-size 16 --iterations 5
           --save-field ${WORK}/f16.mha)
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --iterations 5 --save-field ${WORK}/ball_f.mha)
set(cases "--edge-map|${WORK}/small.pgm|8x8"
          "--v0|${WORK}/f16.mha|16x16"
          "--v0|${WORK}/ball_f.mha|2 channels"
          "--v0|${WORK}/nothing.txt|field file"
          "--edge-map|${WORK}/ball.mhd|volume")
foreach(c IN LISTS cases)
  string(REPLACE "|" ";" c "${c}")
  list(GET c 0 flag)
  list(GET c 1 file)
  list(GET c 2 why)
  run_gvflab(FALSE --headless --phantom u --phantom-size 32 --iterations 5 ${flag} ${file})
  if(NOT last_err MATCHES "${flag}" OR NOT last_err MATCHES "${why}")
    message(FATAL_ERROR "${flag} ${file}: ${last_err}")
  endif()
endforeach()
run_gvflab(FALSE --phantom u --edge-map ${WORK}/small.pgm)
if(NOT last_err MATCHES "--edge-map" OR NOT last_err MATCHES "headless")
  message(FATAL_ERROR "--edge-map in the viewer: ${last_err}")
endif()

# @case batch_one_bad_input
# --batch over a glob: three tiny images, the middle one truncated. The others are written
# (named after their stems in --output-dir), the bad one leaves nothing, the summary names it
# with its reason, stderr has its error and one progress line per input (not a terminal), and
# the exit status is 1.
function(write_square_pgm path)
  set(px "")
  foreach(y RANGE 15)
    foreach(x RANGE 15)
      if(x GREATER 4 AND x LESS 11 AND y GREATER 4 AND y LESS 11)
        string(APPEND px "200 ")
      else()
        string(APPEND px "20 ")
      endif()
    endforeach()
    string(APPEND px "\n")
  endforeach()
  file(WRITE ${path} "P2\n16 16\n255\n${px}")
endfunction()
file(MAKE_DIRECTORY ${WORK}/in ${WORK}/out)
write_square_pgm(${WORK}/in/a.pgm)
file(WRITE ${WORK}/in/b.pgm "P2\n16 16\n255\n1 2 3\n")
write_square_pgm(${WORK}/in/c.pgm)
execute_process(COMMAND ${GVFLAB} --headless --batch "${WORK}/in/*.pgm" --output-dir ${WORK}/out
                --iterations 5 --save-magnitude mag.png --report r.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 240)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "a batch with one bad input exited ${rc} (want 1): ${out} ${err}")
endif()
foreach(f a-mag.png a-r.json c-mag.png c-r.json)
  if(NOT EXISTS ${WORK}/out/${f})
    message(FATAL_ERROR "the batch did not write ${f}: ${out} ${err}")
  endif()
endforeach()
file(GLOB from_b ${WORK}/out/b*)
if(from_b)
  message(FATAL_ERROR "the bad input left outputs: ${from_b}")
endif()
if(NOT out MATCHES "\nbatch: 2 of 3 inputs done, 1 failed:\n  [^\n]*/in/b\\.pgm: [^\n]*b\\.pgm[^\n]*\n$")
  message(FATAL_ERROR "the summary does not list the failure with its reason: ${out}")
endif()
if(NOT out MATCHES "/in/a\\.pgm: [a-z]+: 5 iterations on 16x16" OR
   NOT out MATCHES "/in/c\\.pgm: [a-z]+: 5 iterations on 16x16")
  message(FATAL_ERROR "the runs' lines are not prefixed by their inputs: ${out}")
endif()
if(NOT err MATCHES "\\[1/3\\] [^\n]*/a\\.pgm: done\n" OR NOT err MATCHES "\\[2/3\\] [^\n]*/b\\.pgm: failed\n"
   OR NOT err MATCHES "\\[3/3\\] [^\n]*/c\\.pgm: done\n" OR NOT err MATCHES "gvflab: [^\n]*b\\.pgm")
  message(FATAL_ERROR "stderr lacks a progress line per input or the error: ${err}")
endif()

# @case batch_list_templates_quiet
# --batch @LIST (names relative to the list's folder, # comments) with {stem} in an output
# name, --quiet: a successful batch prints nothing on stderr, and exits 0.
file(MAKE_DIRECTORY ${WORK}/scans ${WORK}/out)
write_ball_volume()
file(RENAME ${WORK}/ball.mhd ${WORK}/scans/one.mhd)
file(RENAME ${WORK}/ball.raw ${WORK}/scans/ball.raw)
file(COPY_FILE ${WORK}/scans/one.mhd ${WORK}/scans/two.mhd)
file(WRITE ${WORK}/scans/list.txt "# two volumes\none.mhd\n\n  two.mhd  \n")
run_gvflab(TRUE --headless --quiet --batch @${WORK}/scans/list.txt --output-dir ${WORK}/out
           --iterations 3 --save-field "field-{stem}.mha" --report "{stem}.json")
foreach(f field-one.mha one.json field-two.mha two.json)
  if(NOT EXISTS ${WORK}/out/${f})
    message(FATAL_ERROR "the list batch did not write ${f}: ${last_out}")
  endif()
endforeach()
if(NOT last_err STREQUAL "" OR NOT last_out MATCHES "batch: 2 of 2 inputs done\n$")
  message(FATAL_ERROR "--quiet batch: stderr '${last_err}', stdout '${last_out}'")
endif()

# @case batch_refusals
# What --batch cannot do is refused in one line before anything runs or is written.
file(MAKE_DIRECTORY ${WORK}/d1 ${WORK}/d2 ${WORK}/out)
write_ball_volume()
file(COPY_FILE ${WORK}/ball.mhd ${WORK}/d1/x.mhd)
file(COPY_FILE ${WORK}/ball.mhd ${WORK}/d2/x.mhd)
file(COPY_FILE ${WORK}/ball.raw ${WORK}/d1/ball.raw)
file(COPY_FILE ${WORK}/ball.raw ${WORK}/d2/ball.raw)
set(refusals
  "--headless --batch ${WORK}/ball.mhd|needs --output-dir"
  "--batch ${WORK}/ball.mhd --output-dir ${WORK}/out|add --headless"
  "--headless --output-dir ${WORK}/out ${WORK}/ball.mhd|give --batch"
  "--headless --batch ${WORK}/nothing*.png --output-dir ${WORK}/out|matches no file"
  "--headless --batch @${WORK}/missing.txt --output-dir ${WORK}/out|list .* cannot be read"
  "--headless --batch ${WORK}/ball.mhd --output-dir ${WORK}/nowhere --report r.json|is not a folder"
  "--headless --batch ${WORK}/ball.mhd --output-dir ${WORK}/out --report sub/r.json|not a path"
  "--headless --batch ${WORK}/d1/x.mhd ${WORK}/d2/x.mhd --output-dir ${WORK}/out --report r.json|would both write"
  "--headless --batch ${WORK}/ball.mhd --output-dir ${WORK} --report {stem}.mhd|which is the input"
  "--headless --batch ${WORK}/ball.mhd --output-dir ${WORK}/out --phantom u|--phantom"
  "--headless --batch ${WORK}/ball.mhd --output-dir ${WORK}/out --screenshot s.png|does not take it")
foreach(r IN LISTS refusals)
  string(REPLACE "|" ";" parts "${r}")
  list(GET parts 0 cmd)
  list(GET parts 1 want)
  separate_arguments(cmd)
  run_gvflab(FALSE ${cmd})
  if(NOT last_err MATCHES "${want}" OR NOT last_out STREQUAL "")
    message(FATAL_ERROR "gvflab ${cmd}: want '${want}', got: ${last_err} ${last_out}")
  endif()
endforeach()
file(GLOB written ${WORK}/out/*)
if(written)
  message(FATAL_ERROR "refused batches wrote: ${written}")
endif()

# @case batch_one_context
# The batch opens the device once: with --verbose each kernel program is built once for all
# three inputs (a context per input would build them three times).
file(WRITE ${WORK}/p.pgm "P2\n8 8\n255\n")
foreach(i RANGE 63)
  math(EXPR v "(${i} * 37) % 256")
  file(APPEND ${WORK}/p.pgm "${v}\n")
endforeach()
foreach(n p1 p2 p3)
  file(COPY_FILE ${WORK}/p.pgm ${WORK}/${n}.pgm)
endforeach()
file(MAKE_DIRECTORY ${WORK}/out)
run_gvflab(TRUE --headless --verbose --batch ${WORK}/p1.pgm ${WORK}/p2.pgm ${WORK}/p3.pgm
           --output-dir ${WORK}/out --iterations 3 --solver euler)
string(REGEX MATCHALL "gvflab: debug: built kernels/[^\n]*" builds "${last_err}")
list(LENGTH builds n_builds)
list(REMOVE_DUPLICATES builds)
list(LENGTH builds n_distinct)
if(n_builds EQUAL 0 OR NOT n_builds EQUAL n_distinct)
  message(FATAL_ERROR "kernels built ${n_builds} times, ${n_distinct} programs: ${last_err}")
endif()

# @case log_levels
# Levels on stderr: a warning by default ("gvflab: warning: ..."), none with --quiet (errors
# only, still shown), debug lines only with --verbose; stdout's result line is the same in all.
set(run --headless --phantom u --phantom-size 32 --solver euler --iterations 2 --target-error 1e-9)
run_gvflab(TRUE ${run})
if(NOT last_err MATCHES "^gvflab: warning: the error did not reach 1e-09 within 2 iterations"
   OR last_err MATCHES "debug:")
  message(FATAL_ERROR "default: want the warning and no debug line, got: ${last_err}")
endif()
set(plain_out "${last_out}")
run_gvflab(TRUE ${run} --quiet)
if(NOT last_err STREQUAL "")
  message(FATAL_ERROR "--quiet still printed: ${last_err}")
endif()
run_gvflab(TRUE ${run} --verbose)
if(NOT last_err MATCHES "gvflab: debug: " OR NOT last_err MATCHES "gvflab: warning: the error")
  message(FATAL_ERROR "--verbose: want debug lines and the warning, got: ${last_err}")
endif()
foreach(o "${last_out}")
  string(REGEX REPLACE "[0-9.e+-]+ ms" "" a "${o}")
  string(REGEX REPLACE "[0-9.e+-]+ ms" "" b "${plain_out}")
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "stdout differs with --verbose: '${o}' vs '${plain_out}'")
  endif()
endforeach()
run_gvflab(FALSE --headless --quiet ${WORK}/missing.png)
if(NOT last_err MATCHES "^gvflab: [^\n]*missing\\.png[^\n]*\n$")
  message(FATAL_ERROR "--quiet hid the error: ${last_err}")
endif()
run_gvflab(FALSE --headless --quiet --verbose --phantom u)
if(NOT last_err MATCHES "--quiet and --verbose")
  message(FATAL_ERROR "--quiet --verbose: ${last_err}")
endif()

# @case surfaces_run
# Issue 30: surface snakes in a volume (the ball: centre 7.5, 6.5, 6.5 in voxel coordinates,
# radius ~4), a GVF sphere and a traditional box; each surface's file, its state and
# iterations on stdout and in --report. Meshio reads the files back: tests/cli/surface_outputs.py.
write_ball_volume()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --iterations 30 --surface sphere:7.5,6.5,6.5,5
           --surface box:2,2,2,14,12,10@traditional --snake-iterations 40
           --save-surfaces ${WORK}/s.obj --report ${WORK}/r.json)
if(NOT last_out MATCHES "surfaces: 2 \\(gvf and traditional\\), [0-9]+ converged"
   OR NOT EXISTS ${WORK}/s-1.obj OR NOT EXISTS ${WORK}/s-2.obj OR EXISTS ${WORK}/s.obj)
  message(FATAL_ERROR "surfaces run: ${last_out}")
endif()
file(READ ${WORK}/r.json r)
string(JSON n LENGTH "${r}" surfaces)
string(JSON force1 GET "${r}" surfaces 1 force)
string(JSON file1 GET "${r}" surfaces 1 file)
string(JSON faces0 GET "${r}" surfaces 0 faces)
string(JSON state0 GET "${r}" surfaces 0 state)
if(NOT n EQUAL 2 OR NOT force1 STREQUAL "traditional" OR NOT file1 STREQUAL "${WORK}/s-2.obj"
   OR NOT faces0 GREATER 20 OR NOT state0 MATCHES "^(moving|converged|stalled|collapsed)$")
  message(FATAL_ERROR "surfaces in the report: ${r}")
endif()

# @case surfaces_refused
# Refusals before anything is written: each one line naming the flag; no output left.
write_ball_volume()
set(outs --save-surfaces ${WORK}/bad.ply --report ${WORK}/bad.json)
run_gvflab(FALSE --headless --phantom u --phantom-size 32 --surface sphere:16,16,16,5 ${outs})
if(NOT last_err MATCHES "--surface runs in volumes; 'u' is a 2D image")
  message(FATAL_ERROR "2D input: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --surface sphere:12,7,6,5 ${outs})
if(NOT last_err MATCHES "^gvflab: --surface 'sphere:12,7,6,5': ")
  message(FATAL_ERROR "outside the volume: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --surface box:1,1,1,20,5,5 ${outs})
if(NOT last_err MATCHES "outside the 16x14x12 volume")
  message(FATAL_ERROR "box outside: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --surface sphere:8,7,6,4 --save-surfaces
           ${WORK}/bad.vtk)
if(NOT last_err MATCHES "\\.ply, \\.obj or \\.stl")
  message(FATAL_ERROR "unknown surface extension: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd ${outs})
if(NOT last_err MATCHES "--save-surfaces needs at least one --surface")
  message(FATAL_ERROR "no surfaces: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --surface cube:1,2,3)
if(NOT last_err MATCHES "use sphere:X,Y,Z,R or box:X0,Y0,Z0,X1,Y1,Z1")
  message(FATAL_ERROR "not a surface: ${last_err}")
endif()

# @case devices_split_choice
# --devices (issue 41): a volume's solve split over devices; what it cannot split is
# refused in one sentence before any output, and a list that comes to one device (PoCL's one
# device, named twice) runs the plain solver. --device takes P.D numbers.
write_ball_volume()
run_gvflab(FALSE --headless --phantom u --phantom-size 32 --iterations 3 --devices all
           --report ${WORK}/r2d.json)
if(NOT last_err MATCHES "split over devices is for volumes" OR EXISTS ${WORK}/r2d.json)
  message(FATAL_ERROR "2D split: ${last_err}")
endif()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --solver multigrid --iterations 2 --devices all
           --report ${WORK}/rmg.json)
file(READ ${WORK}/rmg.json report)
if(NOT report MATCHES "\"iterations\": 2" OR report MATCHES "\"split\"")
  message(FATAL_ERROR "multigrid over all (one) devices is the plain solver: ${report}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --devices 0.0,,0.1)
if(NOT last_err MATCHES "--devices '0.0,,0.1' has an empty entry")
  message(FATAL_ERROR "empty --devices entry: ${last_err}")
endif()
run_gvflab(FALSE --headless ${WORK}/ball.mhd --device 0.99 --iterations 2)
if(NOT last_err MATCHES "No OpenCL device has the number '0.99'")
  message(FATAL_ERROR "--device 0.99: ${last_err}")
endif()
run_gvflab(TRUE --headless ${WORK}/ball.mhd --solver euler --iterations 3 --device 0.0
           --devices 0.0,0.0 --report ${WORK}/r.json)
file(READ ${WORK}/r.json report)
if(NOT report MATCHES "\"iterations\": 3" OR report MATCHES "\"split\"")
  message(FATAL_ERROR "one device named twice is the plain solver: ${report}")
endif()

# @case devices_auto_split
# A volume whose solve does not fit one device (GVFLAB_TEST_DEVICE_MIB) is split over the
# platform's devices when it has several (two PoCL devices: POCL_DEVICES), each slab's fit
# checked on its device and the report naming the split; with one device it is refused.
string(REPEAT "A" 4096 dark)
string(REPEAT "z" 4096 bright)
string(REPEAT "${dark}" 24 outside)
string(REPEAT "${bright}" 16 inside)
file(WRITE ${WORK}/slab.raw "${outside}${inside}${outside}")
file(WRITE ${WORK}/slab.mhd "ObjectType = Image\nNDims = 3\nDimSize = 64 64 64\n"
     "ElementType = MET_UCHAR\nElementDataFile = slab.raw\n")
set(ENV{GVFLAB_TEST_DEVICE_MIB} 10)  # one device: 13 MiB for Euler, 11 for multigrid
run_gvflab(FALSE --headless ${WORK}/slab.mhd --iterations 2)
if(NOT last_err MATCHES "GVF solve in f32 needs")
  message(FATAL_ERROR "one small device: ${last_err}")
endif()
set(ENV{POCL_DEVICES} "pthread pthread")
# 7 MiB: less than the whole input needs while built (8 MiB), so each slab's f and V0 are
# built on its own device from the file's planes.
set(ENV{GVFLAB_TEST_DEVICE_MIB} 7)
foreach(solver euler multigrid)
  run_gvflab(TRUE --headless ${WORK}/slab.mhd --solver ${solver} --iterations 2
             --report ${WORK}/auto-${solver}.json)
  file(READ ${WORK}/auto-${solver}.json report)
  if(NOT report MATCHES "\"split\": \"z 0-31 on [^;]*; z 32-63 on ")
    message(FATAL_ERROR "${solver} split not chosen: ${report}")
  endif()
endforeach()
# Half the volume too large for a device either: refused whole, before a voxel is read.
set(ENV{GVFLAB_TEST_DEVICE_MIB} 4)
run_gvflab(FALSE --headless ${WORK}/slab.mhd --iterations 2)
if(NOT last_err MATCHES "GVF solve in f32 needs")
  message(FATAL_ERROR "two small devices: ${last_err}")
endif()
unset(ENV{POCL_DEVICES})
unset(ENV{GVFLAB_TEST_DEVICE_MIB})
