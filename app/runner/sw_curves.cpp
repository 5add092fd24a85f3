// lodestone-sw-curves: the Stoner-Wohlfarth torque against the field from the engine's own solver
// and the moment's angle to the easy axis against the axis's angle to the field ([Erokhin-Berkov] Figs. 3
// and 2), for the reproduction document. Prints three CSV tables to stdout:
//   torque,theta_deg,field_kOe,psi_deg,torque_over_KV     (T / KV = sin 2 psi, eq. 4; Fig. 3a,b)
//   peak,theta_deg,field_kOe,psi_deg,closed_form_kOe      (field of the largest torque, theta > 45; Fig. 3c)
//   psi,theta_deg,field_kOe,psi_deg,closed_form_psi_deg   (psi(theta) at fixed fields, Fig. 2; the closed
//                                                          form exists at theta = 90 deg only: sin psi = H/H_K)
// Material: Sr-ferrite, Ms = 380 G, K = 3.5e6 erg/cm^3, so H_K = 2K/Ms = 18.42 kOe.

#include "engine/core/version.hpp"
#include "engine/magnetic/stoner_wohlfarth.hpp"
#include "engine/output/series.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace lodestone;

int main(int argc, char** argv) {
  // No options: the tables are fixed. --help and --version answer as every program's do.
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--version") == 0) {
      std::printf("lodestone-sw-curves %s\n%s\n", LODESTONE_VERSION, lodestone_license_and_citation().c_str());
      return 0;
    }
    if (std::strcmp(argv[k], "--help") == 0 || std::strcmp(argv[k], "-h") == 0) {
      std::printf(
          "lodestone-sw-curves: the Stoner-Wohlfarth torque against the field and psi(theta) (Sr-ferrite,\n"
          "[Erokhin-Berkov] Figs. 3 and 2) as three CSV tables on stdout (docs/reproduction-powder.md). No options "
          "besides --help and --version.\n");
      return 0;
    }
    std::fprintf(stderr, "lodestone-sw-curves: unknown argument '%s' (it takes none; see --help)\n", argv[k]);
    return 1;
  }
  const double ms = 3.8e5, k = 3.5e5;                         // A/m, J/m^3
  const double hk_kOe = anisotropy_field_tesla(k, ms) / 0.1;  // mu0 H_K in T; 1 kOe = 0.1 T
  const double deg = pi / 180.0;
  std::printf("%stable,theta_deg,field_kOe,psi_deg,value\n",
              csv_version_comment().c_str());  // value: sin 2 psi, or the closed-form field
  for (double theta_deg : {10.0, 20.0, 30.0, 40.0, 45.0, 50.0, 60.0, 70.0, 80.0, 85.0}) {
    double psi = 0.0;  // the branch that starts on the easy axis, the field ramped up
    for (int i = 0; i <= 400; ++i) {
      const double field = 0.1 * std::pow(1000.0, i / 400.0);  // 0.1 .. 100 kOe
      psi = sw_equilibrium_angle(field / hk_kOe, theta_deg * deg, psi);
      std::printf("torque,%g,%.6g,%.6g,%.8g\n", theta_deg, field, psi / deg, std::sin(2.0 * psi));
    }
  }
  // Field of the largest torque: golden-section search on sin 2 psi(h); closed form from eq. 2 with
  // psi = 45 deg: h* = 1 / (2 sin(theta - 45 deg)).
  for (double theta_deg = 47.5; theta_deg <= 89.0; theta_deg += 2.5) {
    const double theta = theta_deg * deg;
    auto torque = [&](double h) { return std::sin(2.0 * sw_equilibrium_angle(h, theta, 0.5 * theta)); };
    double a = 0.01, b = 20.0;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int it = 0; it < 200; ++it) {
      const double c = b - g * (b - a), d = a + g * (b - a);
      if (torque(c) > torque(d))
        b = d;
      else
        a = c;
    }
    const double h_peak = 0.5 * (a + b);
    std::printf("peak,%g,%.6g,%.6g,%.6g\n", theta_deg, h_peak * hk_kOe,
                sw_equilibrium_angle(h_peak, theta, 0.5 * theta) / deg, hk_kOe / (2.0 * std::sin(theta - 45.0 * deg)));
  }
  // Fig. 2: psi(theta) at fixed fields, each reached by ramping the field up from zero on the branch that
  // starts on the easy axis (as the engine does every step). At theta = 90 deg eq. 2 reads
  // h cos psi = sin psi cos psi, so sin psi = h below H_K and psi = 90 deg above.
  for (double field : {2.0, 5.0, 10.0, 15.0, 20.0, 40.0, 100.0}) {
    for (int theta_deg = 0; theta_deg <= 90; ++theta_deg) {
      const double theta = theta_deg * deg;
      double psi = 0.0;
      for (int i = 0; i <= 200; ++i) psi = sw_equilibrium_angle(field * i / 200.0 / hk_kOe, theta, psi);
      const double h = field / hk_kOe;
      const double closed = theta_deg == 90 ? (h < 1.0 ? std::asin(h) : 0.5 * pi) / deg : std::nan("");
      std::printf("psi,%d,%g,%.8g,%.8g\n", theta_deg, field, psi / deg, closed);
    }
  }
  return 0;
}
