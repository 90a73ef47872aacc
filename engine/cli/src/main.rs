fn main() {
    println!("sendpath {}", sendpath_core::VERSION);
}
