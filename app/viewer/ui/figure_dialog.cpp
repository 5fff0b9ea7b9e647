#include "viewer/ui/figure_dialog.hpp"

#include <QCheckBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "io/file_formats.hpp"

namespace gvflab::viewer {

std::optional<FigureRequest> askFigure(QWidget* parent, const FigureOptions& initial, int viewWidth,
                                       int viewHeight) {
  QDialog dialog(parent);
  dialog.setWindowTitle("Save figure");
  auto* form = new QFormLayout(&dialog);
  auto* width = new QSpinBox(&dialog);
  auto* height = new QSpinBox(&dialog);
  for (QSpinBox* box : {width, height}) {
    box->setRange(16, 8192);
    box->setSuffix(" px");
  }
  width->setValue(initial.width > 0 ? initial.width : viewWidth);
  height->setValue(initial.height > 0 ? initial.height : viewHeight);
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(width);
  sizeRow->addWidget(height);
  auto* viewSize = new QPushButton("Size of the view", &dialog);
  QObject::connect(viewSize, &QPushButton::clicked, &dialog, [=] {
    width->setValue(viewWidth);
    height->setValue(viewHeight);
  });
  sizeRow->addWidget(viewSize);
  form->addRow("Size", sizeRow);
  auto* legend = new QCheckBox("colour bar and one entry per snake", &dialog);
  legend->setChecked(initial.legend);
  form->addRow("Legend", legend);
  auto* caption = new QCheckBox("iteration, \xce\xbc, \xce\xb5, solver, snake forces", &dialog);
  caption->setChecked(initial.caption);
  form->addRow("Caption", caption);
  auto* panels = new QCheckBox("the whole window with the panels (its own size)", &dialog);
  panels->setChecked(initial.panels);
  form->addRow("Panels", panels);
  auto* composite = new QCheckBox(
      "as in the papers: image | edge map | |V| and arrows | snakes, captioned (the width "
      "above; the height follows the image)",
      &dialog);
  composite->setChecked(initial.composite);
  form->addRow("Composite", composite);
  auto toggle = [=] {
    const bool whole = panels->isChecked(), four = composite->isChecked();
    for (QWidget* w : {static_cast<QWidget*>(width), static_cast<QWidget*>(viewSize)})
      w->setEnabled(!whole);
    height->setEnabled(!whole && !four);
    for (QWidget* w : {static_cast<QWidget*>(legend), static_cast<QWidget*>(caption)})
      w->setEnabled(!whole && !four);
    panels->setEnabled(!four);
    composite->setEnabled(!whole);
  };
  QObject::connect(panels, &QCheckBox::toggled, &dialog, toggle);
  QObject::connect(composite, &QCheckBox::toggled, &dialog, toggle);
  toggle();
  auto* fileRow = new QHBoxLayout;
  const std::string_view pngExtension = app::preferredExtension(app::FormatRole::PictureOutput);
  const QString png = QString::fromUtf8(pngExtension.data(), qsizetype(pngExtension.size()));
  auto* file =
      new QLineEdit(QDir::current().filePath(
                        "gvflab-" + QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss") + png),
                    &dialog);
  file->setMinimumWidth(320);
  auto* browse = new QPushButton("Browse...", &dialog);
  QObject::connect(browse, &QPushButton::clicked, &dialog, [&] {
    QString p = QFileDialog::getSaveFileName(
        &dialog, "Save figure", file->text(),
        QString::fromStdString(app::fileDialogFilter(
            static_cast<app::FormatRoles>(app::FormatRole::PictureOutput), "PNG images")));
    if (!p.isEmpty()) file->setText(p);
  });
  fileRow->addWidget(file);
  fileRow->addWidget(browse);
  form->addRow("File", fileRow);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted || file->text().isEmpty()) return std::nullopt;
  FigureRequest r;
  r.path = file->text();
  if (!app::findFormat(r.path.toStdString(), app::FormatRole::PictureOutput)) r.path += png;
  r.options.width = width->value();
  r.options.height = height->value();
  r.options.legend = legend->isChecked();
  r.options.caption = caption->isChecked();
  r.options.panels = panels->isChecked();
  r.options.composite = composite->isChecked() && !r.options.panels;
  return r;
}

}  // namespace gvflab::viewer
