// Magnetics panel: moment model and its parameters, dipole method (off, cutoff, exact, tree, Ewald) and which one
// is in force, cap, cutoff, activity distance, induced iterations, the multiple-time-step interval (an
// approximation, named when on), the tree's opening angle (shown with the tree) and the Ewald sum's accuracy,
// surroundings and the splitting and cutoffs chosen from them (shown with Ewald), and P3M's accuracy and tuned
// parameters (mesh, order, splitting, cutoff, estimated error: read-only, shown with P3M).

#include "engine/magnetic/ewald.hpp"
#include "ui/panels.hpp"
#include "ui/plain_labels.hpp"

#include <imgui.h>

namespace lodestone::ui {

namespace {

// What the running simulation uses (an edit may still be on its way, or have been refused).
void show_method_in_force(PanelContext& c) {
  if (c.snapshot.in_force) {
    const MagneticParameters& running = c.snapshot.in_force->magnetics;
    switch (running.method) {
      case DipoleMethod::Off: ImGui::TextDisabled("in force: dipoles off"); break;
      case DipoleMethod::Cutoff: ImGui::TextDisabled("in force: cutoff (neighbour list)"); break;
      case DipoleMethod::Direct: ImGui::TextDisabled("in force: exact sum over all pairs"); break;
      case DipoleMethod::Tree:
        ImGui::TextWrapped("in force: tree, opening angle %.3g (Barnes-Hut approximation of the exact sum)",
                           running.tree_opening_angle);
        break;
      case DipoleMethod::Ewald: {
        // The rule prepare_model applies (engine/magnetic/ewald.hpp), for the box and particles shown.
        const Preset& scene = *c.snapshot.in_force;
        const Vec3 box = scene.box.max - scene.box.min;
        const EwaldSplitting split =
            choose_ewald_splitting(running.ewald_accuracy, box, c.snapshot.particles.radius.size());
        ImGui::TextWrapped(
            "in force: Ewald sum over all periodic images (%s surroundings), accuracy %.1e: splitting %.3g per box "
            "length, pairs counted up to %.3g box lengths, waves up to %.3g per box length",
            running.ewald_surroundings == EwaldSurroundings::Vacuum ? "vacuum" : "conducting", running.ewald_accuracy,
            split.alpha * box.x(), split.real_cutoff / box.x(), split.k_cutoff * box.x() / (2.0 * pi));
        break;
      }
      case DipoleMethod::P3M: {
        // The parameters prepare_model tuned (engine/magnetic/p3m.hpp), as the running model has them.
        const P3MTuning& t = c.snapshot.p3m;
        const Vec3 box = c.snapshot.in_force->box.max - c.snapshot.in_force->box.min;
        ImGui::TextWrapped(
            "in force: particle mesh (P3M, %s surroundings), accuracy %.1e: mesh %d x %d x %d, order %d, splitting "
            "%.3g per box length, pairs counted up to %.3g box lengths; estimated RMS force error %.2g F0",
            running.ewald_surroundings == EwaldSurroundings::Vacuum ? "vacuum" : "conducting", running.p3m_accuracy,
            t.mesh[0], t.mesh[1], t.mesh[2], t.order, t.alpha * box.x(), t.real_cutoff / box.x(), t.estimated_error);
        break;
      }
    }
  }
}

}  // namespace

void magnetics_panel(PanelContext& c) {
  UiState& state = c.state;
  Preset& p = state.edited;
  EditorContext editor = editor_context(state);
  bool changed = false;
  note("moment model: rigid dipole (moment fixed in the body)");
  for (size_t m = 0; m < p.materials.size(); ++m) {
    const std::string id = "materials[" + std::to_string(m) + "]";
    ImGui::PushID(id.c_str());
    ImGui::TextUnformatted(p.materials[m].name.c_str());
    changed |= edit_key(material_schema(), "magnetization", p.materials[m], id, editor);
    ImGui::PopID();
  }
  // The method first; the expert settings (cut-off, cap, induced passes, ...) under "Advanced".
  auto edit_fields = [&](bool advanced) {
    for (const auto& f : magnetics_schema()) {
      if (is_advanced("magnetics." + f.key) != advanced) continue;
      if (f.key == "method") {
        // The schema's names in its order, shown as the user knows them: direct is the exact sum.
        static const std::vector<std::string> labels = {
            "off", "cutoff", "exact", "tree", "ewald (all images)", "particle mesh (fast, large N)"};
        int method = static_cast<int>(p.magnetics.method);
        if (edit_choice("magnetics.method", "how the magnets' pulls are summed", method, labels,
                        field_tooltip(f.help, "magnetics.method"))) {
          p.magnetics.method = static_cast<DipoleMethod>(method);
          note_change(editor, "magnetics.method");
          changed = true;
        }
      } else if (f.key == "tree_opening_angle" && p.magnetics.method != DipoleMethod::Tree) {
        continue;  // only the tree reads it
      } else if (f.key == "ewald_accuracy" && p.magnetics.method != DipoleMethod::Ewald) {
        continue;  // only the Ewald sum reads it
      } else if (f.key == "ewald_surroundings" && p.magnetics.method != DipoleMethod::Ewald &&
                 p.magnetics.method != DipoleMethod::P3M) {
        continue;  // the Ewald sum and P3M read it
      } else if (f.key == "p3m_accuracy" && p.magnetics.method != DipoleMethod::P3M) {
        continue;  // only P3M reads it
      } else {
        changed |= edit_field(f, p.magnetics, "magnetics", editor);
      }
    }
  };
  edit_fields(false);
  if (ImGui::TreeNode("magnetics.advanced", "Advanced")) {
    edit_fields(true);
    ImGui::TreePop();
  }
  show_method_in_force(c);
  // A slab (periodic along x and y only) is summed with the layer correction (engine/magnetic/dlc.hpp): say so.
  if (c.snapshot.in_force) {
    const Preset& scene = *c.snapshot.in_force;
    const DipoleMethod m = scene.magnetics.method;
    if ((m == DipoleMethod::Ewald || m == DipoleMethod::P3M) && scene.box.periodic(0) && scene.box.periodic(1) &&
        !scene.box.periodic(2))
      ImGui::TextWrapped(
          "slab (periodic along x and y only): summed in a box twice as high with the layer correction, which takes "
          "off the copies stacked along z");
  }
  // Issue 7: an approximation is never on silently. force_interval (default 1, exact) is listed above.
  if (p.magnetics.force_interval > 1 && p.magnetics.method != DipoleMethod::Off)
    ImGui::TextWrapped(
        "Approximation: dipole forces are computed every %d steps and extrapolated in between "
        "([Dominik-Nubold] App. A.8; force_interval 1 is exact).",
        p.magnetics.force_interval);
  if (changed) send_parameters(state, c.send);
}

}  // namespace lodestone::ui
