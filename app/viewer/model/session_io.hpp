#pragma once
// Between the live viewer state (Session, SnakeSession, layers) and a saved session file.
#include "io/session_file.hpp"
#include "viewer/model/layer_settings.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"

namespace gvflab::viewer {

app::SessionFile captureSession(const Session& session, const SnakeSession& snakes,
                                const LayerSettings& layers);
// Opens the image or phantom, sets the parameters and puts the snakes back, from their saved
// current contours or their starting ones (`from`); either way each keeps its starting
// contour. Throws gvflab::Error; a failure after the image opened leaves the new image with
// what succeeded.
void restoreSession(const app::SessionFile& file, Session& session, SnakeSession& snakes,
                    LayerSettings& layers, app::SessionStart from = app::SessionStart::Current);

}  // namespace gvflab::viewer
