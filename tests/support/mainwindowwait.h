#pragma once

// For the ui tests only (they link the GUI): waiting for the main window's projection.

#include "mainwindow.h"

#include <QApplication>
#include <QSignalSpy>

namespace gf::test {

/// Waits until the window shows the projection of its current settings (false when it never came).
inline bool waitForProjection(MainWindow &window)
{
    QSignalSpy spy(&window, &MainWindow::projectionUpdated);
    window.projection()->waitForIdle();
    const bool done = !spy.isEmpty() || spy.wait(30000) || !window.projection()->isBusy();
    QApplication::processEvents();
    return done;
}

} // namespace gf::test
