extension SimulationOptions {
    /// Takes `scenario`'s population: users, devices per user, seed and the server's heartbeat.
    public mutating func usePopulation(of scenario: ScenarioFile) {
        users = scenario.population.users
        devicesPerUser = scenario.population.devices
        seed = scenario.population.seed
        heartbeatTimeout = .milliseconds(Int64(scenario.population.heartbeat * 1000))  // 1-300 s, checked
    }
}
