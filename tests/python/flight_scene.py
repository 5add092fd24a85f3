"""The scene of the trajectory tests (test_images, test_h5md, test_gzip_frames): three spheres flying across a
periodic box."""

# Three spheres flying through a 10 mm box, periodic on x and y, walls on z: in 2000 steps of 0.1 ms they cross
# the x faces 8 times and the y faces up to 5 times, never touching one another (the same velocity along x keeps
# them 3 mm apart along x). The soft spring (kn) only keeps the suggested time step above the one used.
L = 0.01
VELOCITIES = [[0.41, 0.053, 0.0], [0.41, -0.131, 0.0], [0.41, 0.217, 0.0]]
START = [[0.001, 0.002, 0.005], [0.004, 0.005, 0.005], [0.007, 0.008, 0.005]]
SCENE = {
    "version": 1,
    "materials": [{"name": "bead", "density": "5000 kg/m^3", "kn": "1 N/m"}],
    "magnetics": {"method": "off"},
    "integrator": {"time_step": "0.1 ms"},
    "box": {"min": [0, 0, 0], "max": [L, L, L], "x_min": "periodic", "x_max": "periodic",
            "y_min": "periodic", "y_max": "periodic"},
    "particles": {"kind": "list", "particles": [
        {"position": p, "radius": "0.4 mm", "velocity": v} for p, v in zip(START, VELOCITIES)]},
}
STEPS = 2000
